/**
 * The ledger's own words: the kinds of entry and transaction it writes and
 * the codes of the rules it refuses by. This module imports nothing, so the
 * HTTP contracts (and the browser, through them) take it alone as
 * `@peeks/ledger/words`; they give each word its label, wire code and text.
 */

/** Ledger entry types (spec §4, "Ledger type labels"); RETURN is the platform's: a sale given back. */
export const ledgerTypes = [
  'FEE_PLATFORM',
  'P2P_RCVD',
  'P2P_SENT',
  'TIPS_RVCD',
  'TIPS_USER_RVCD',
  'TIPS_SENT',
  'TIPS_USER_SENT',
  'BONUS',
  'DEP_CON',
  'DEP_IAP',
  'DEP_PAYPAL',
  'DEP_CC',
  'ACCT_TO_ACCT',
  'PURCHASE',
  'PURCHASE_COINS',
  'PURCHASE_IMP',
  'PURCHASE_OFFER',
  'PURCHASE_SUB',
  'WITHDRAW',
  'SETTLE_SEND',
  'SETTLE_RCV',
  'CORR',
  'RETURN',
] as const;

export type LedgerType = (typeof ledgerTypes)[number];

/** The kinds of transaction the ledger writes (spec §3 Transaction `type`). */
export const transactionTypes = [
  'purchase',
  'deposit',
  'transfer',
  'sale',
  'return',
  'withdraw',
  'settlement',
  'fee',
  'correction',
] as const;

export type TransactionType = (typeof transactionTypes)[number];

/** The states a transaction goes through (spec §3 Transaction `state`). */
export const transactionStates = ['pending', 'completed', 'rejected', 'expired', 'failed'] as const;

export type TransactionState = (typeof transactionStates)[number];

/** Why the ledger refuses a command (LedgerRuleViolation's `code`). */
export type RefusalCode =
  | 'invalid_amount'
  | 'amount_not_positive'
  | 'amount_above_limit'
  | 'amount_below_minimum'
  | 'required_field'
  | 'wallet_not_found'
  | 'transaction_not_found'
  | 'insufficient_funds'
  | 'funds_on_hold'
  | 'card_funds_maturing'
  | 'send_to_self'
  | 'wallet_closed'
  | 'currency_mismatch'
  | 'transaction_state_invalid'
  | 'wallet_not_empty'
  | 'return_exceeds_sale'
  | 'sale_not_returnable'
  | 'payment_method_wrong_use';
