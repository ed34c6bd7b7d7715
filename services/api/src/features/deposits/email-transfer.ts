import { randomInt } from 'node:crypto';

/**
 * Letters and digits nobody misreads or mistypes from an e-mail or a phone
 * screen: no 0/O, 1/I/L, and no U (so no accidental words).
 */
const TYPABLE = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

function typable(length: number): string {
  return Array.from({ length }, () => TYPABLE[randomInt(TYPABLE.length)]).join('');
}

/**
 * A reference memo for the bank's memo field, "PKS-7K3M-9QXD": 30^8 (about
 * 6.6 × 10^11) of them, so a clash is rare and the unique index turns one
 * into a retry.
 */
export function newReferenceMemo(): string {
  return `PKS-${typable(4)}-${typable(4)}`;
}

/** The Interac security answer: 8 typable characters, within Interac's 3 to 25, no spaces. */
export function newSecurityAnswer(): string {
  return typable(8);
}

/** The platform's name as the user adds it as a transfer recipient. */
export const RECIPIENT_NAME = 'Peeks Wallet';

/** The recipient e-mail of each transfer network (config INTERAC_RECIPIENT, ZELLE_RECIPIENT). */
export interface EmailTransferRecipients {
  interac: string;
  zelle: string;
}
