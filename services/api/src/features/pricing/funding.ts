import type { Funding } from '@peeks/contracts';
import type { PaymentMethodsTable } from '@peeks/db';
import type { Selectable } from 'kysely';

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

/** What a card or bank paid or was paid, by its name, for an answer; the ledger's event is the record of it. */
export const fundingView = (record: Funding): Funding => ({
  amount: record.amount,
  currency: record.currency,
  label: record.label,
});
