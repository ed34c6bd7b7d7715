import { z } from 'zod';
import { successEnvelope } from './envelope.ts';

/** The currencies of the ledger (spec §9): USD and CAD in cents, CON in hundredths of a coin, IMP whole. */
export const currencyCode = z.enum(['USD', 'CAD', 'CON', 'IMP']);
export type Currency = z.infer<typeof currencyCode>;

/** A transaction's address (spec §3, "Transaction address"). */
export const transactionAddress = z.object({
  name_first: z.string().nullable(),
  name_last: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province_state: z.string().nullable(),
  country: z.string().nullable(),
  postal_code: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});

export const cartLine = z.object({ sku: z.string(), name: z.string(), price: z.number().int() });
export type CartLine = z.infer<typeof cartLine>;

/** Money a card or bank account paid in or was paid out, outside the wallet: what it was actually charged. */
export const historyFunding = z.object({
  amount: z.number().int(),
  currency: currencyCode,
  /** "Visa •••• 4242", "Bank •••• 6789", "Interac e-Transfer". */
  label: z.string(),
});
export type HistoryFunding = z.infer<typeof historyFunding>;

/** Who was on the other side: a person by name and @username, or a shop by its display name. */
export const historyCounterparty = z.object({
  kind: z.enum(['user', 'merchant']),
  name: z.string(),
  /** A person's username; null for a shop. */
  username: z.string().nullable(),
});
export type HistoryCounterparty = z.infer<typeof historyCounterparty>;

/** A conversion a transaction made, as it was priced (`quote_id` null where no quote was confirmed). */
export const historyQuote = z.object({
  quote_id: z.string().nullable(),
  from_currency: currencyCode,
  to_currency: currencyCode,
  /** Units of `to_currency` per unit of `from_currency`. */
  rate: z.number(),
  amount_in: z.number().int(),
  amount_out: z.number().int(),
  fee: z.number().int(),
});
export type HistoryQuote = z.infer<typeof historyQuote>;

/**
 * A transaction as one party sees it (spec §3, "Transaction"): `debit_credit`
 * is D for the side money left, C for the side it reached. Amounts are
 * integers in the currency's minor unit. Fields the ledger has no source for
 * yet are null, never invented.
 */
export const transaction = z.object({
  tx_id: z.string(),
  entry_date: z.string(),
  return_date: z.string().nullable(),
  user_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  state: z.string(),
  type: z.string(),
  tx_class: z.string(),
  merchant_batch_id: z.string().nullable(),
  billing_address: transactionAddress.nullable(),
  shipping_address: transactionAddress.nullable(),
  debit_credit: z.enum(['D', 'C']),
  amount: z.number().int(),
  fee: z.number().int(),
  currency: currencyCode,
  terminal_id: z.string().nullable(),
  invoice_no: z.string().nullable(),
  custom_1: z.string().nullable(),
  error_code: z.string().nullable(),
  fi_response_code: z.string().nullable(),
  fi_response_text: z.string().nullable(),
  parent_tx_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  /** True once a sale was given back in full (a partial return is `partially_refunded`). */
  refunded: z.boolean(),
  cart: z.array(cartLine),
  payment_method_type: z.string().nullable(),
  payment_method: z.string().nullable(),
  customer_Name: z.string().nullable(),
  reference: z.string().nullable(),
  /** The hold on money the viewer received; null for the payer, whose money it no longer is. */
  hold_amount: z.number().int().nullable(),
  hold_release_at: z.string().nullable(),
  /**
   * How the viewer's wallet of `currency` moved, signed, in minor units:
   * from the ledger's postings, so a person's rows sum to their balance. 0
   * when the wallet did not move (a payment charged to a card).
   */
  wallet_change: z.number().int(),
  funding: historyFunding.nullable(),
  counterparty: historyCounterparty.nullable(),
  quote: historyQuote.nullable().optional(),
  /** A sale's returns so far: true once only part of it was given back. */
  partially_refunded: z.boolean(),
  refunded_amount: z.number().int(),
  /** What of a sale can still be returned; 0 for anything that is not a sale. */
  refundable_amount: z.number().int(),
});

export type TransactionView = z.infer<typeof transaction>;

/** What a money-moving call answers: the transaction it made (or, for a retry, made before). */
export const transactionResponse = successEnvelope({ transaction });
