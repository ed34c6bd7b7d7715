import type { Funding } from '@peeks/contracts';
import type { Database, PaymentMethodsTable, TransactionFundingTable } from '@peeks/db';
import { isCurrency, type Cash } from '@peeks/ledger';
import type { Kysely, Selectable } from 'kysely';

const brandNames: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** How a person knows a stored method: "Visa •••• 4242", "Bank •••• 6789"; never more than the last four. */
export function methodLabel(method: Pick<Selectable<PaymentMethodsTable>, 'type' | 'type_specific'>): string {
  const details = method.type_specific;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const lastFour = (value: unknown) => text(value).slice(-4);
  if (method.type === 'CC') {
    const brand = text(details.card_brand);
    return `${brandNames[brand] ?? 'Card'} •••• ${lastFour(details.card_mask)}`;
  }
  return `${method.type === 'WIRE' ? 'Wire' : 'Bank'} •••• ${lastFour(details.account_no)}`;
}

export type FundingRecord = Omit<Selectable<TransactionFundingTable>, 'recorded_at'>;

/**
 * Records what a card or bank paid or was paid for a transaction, once: a
 * retry of the same transaction keeps the first record, whose quote fixed
 * the amount.
 */
export async function recordFunding(db: Kysely<Database>, record: FundingRecord, now: Date): Promise<void> {
  await db
    .insertInto('transaction_funding')
    .values({ ...record, recorded_at: now })
    .onConflict((conflict) => conflict.column('tx_id').doNothing())
    .execute();
}

/**
 * The cash a withdrawal was recorded to pay out (its quote's amount for
 * coins), for whoever pays it out; null for one requested before payouts
 * were recorded, which pays out its own amount.
 */
export async function payoutOf(db: Kysely<Database>, txId: string): Promise<Cash | null> {
  const row = await db
    .selectFrom('transaction_funding')
    .select(['amount', 'currency'])
    .where('tx_id', '=', txId)
    .executeTakeFirst();
  return row && isCurrency(row.currency) ? { amount: row.amount, currency: row.currency } : null;
}

export const fundingView = (record: Pick<FundingRecord, 'amount' | 'currency' | 'label'>): Funding => ({
  amount: record.amount,
  currency: record.currency,
  label: record.label,
});
