import { errorCodes, type Agreement } from '@peeks/contracts';
import { refuse } from '../../plugins/error-envelope.ts';

const at = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/**
 * Whether the agreement can take this answer now (spec §4 "Agreement"):
 * accepting only while it is in effect; skipping only before agree_by.
 * Throws the refusal; returns nothing when the answer is allowed.
 */
export function checkAnswer(agreement: Agreement, answer: 'accept' | 'skip', now: Date): void {
  const time = now.getTime();
  const inEffect = Date.parse(agreement.effective_date) <= time && (at(agreement.expiry_date) ?? Infinity) > time;
  if (!inEffect) throw refuse(422, errorCodes.agreementNotInEffect);
  if (answer === 'skip' && !agreement.is_accepted && (at(agreement.agree_by) ?? Infinity) <= time)
    throw refuse(422, errorCodes.agreementSkipClosed);
}
