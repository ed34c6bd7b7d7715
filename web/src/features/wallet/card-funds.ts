import type { Balance } from '@peeks/contracts';
import { formatMoney } from '../../lib/money.ts';
import { formatDateTime } from '../../lib/dates.ts';

/**
 * The coins bought by card that cannot be withdrawn as cash yet, and from
 * when they can, as the wallet and Withdraw Funds show them; null with none.
 */
export function cardFundsNote(
  balance: Pick<Balance, 'currency' | 'card_funds_on_hold' | 'card_funds_release_at'>,
  language: string,
): { amount: string; time: string } | null {
  const amount = balance.card_funds_on_hold ?? 0;
  if (amount <= 0 || !balance.card_funds_release_at) return null;
  return {
    amount: formatMoney(amount, balance.currency),
    time: formatDateTime(balance.card_funds_release_at, language),
  };
}
