import type { HistoryCounterparty, HistoryFunding, HistoryQuote, TransactionView } from '@peeks/contracts';
import type { LedgerTransactionsTable } from '@peeks/db';
import {
  isCurrency,
  ownerOf,
  type Coin,
  type Currency,
  type TransactionRecord,
  type TransactionState,
  type TransactionType,
} from '@peeks/ledger';
import type { Selectable } from 'kysely';

/** What a sale's returns gave back so far, and when last (kept on the sale's row, not in its stream). */
export interface SaleReturns {
  returnedAmount: number;
  returnDate: string | null;
}
const noReturns: SaleReturns = { returnedAmount: 0, returnDate: null };

/**
 * What a row says beyond the transaction itself, read from the ledger's
 * postings and the transaction's opening event (history-rows.ts).
 */
export interface RowFacts {
  walletChange: number;
  funding: HistoryFunding | null;
  counterparty: HistoryCounterparty | null;
  quote: HistoryQuote | null;
  /** What the viewer's own wallet moved, when in another currency than the transaction's (coins for a cash price, or back from its return). */
  paidInCoins?: { amount: number; currency: Currency } | null;
}

/**
 * A transaction as `viewerOwnerId` sees it: debit when money left the
 * viewer's side. Fields the ledger keeps no source for (addresses, cart,
 * terminal) are left to the feature that has one. A hold is the payee's:
 * the payer is not told of it.
 */
export function transactionView(
  record: TransactionRecord,
  viewerOwnerId: string,
  returns: SaleReturns | undefined,
  facts: RowFacts,
): TransactionView {
  const viewerPaid = record.payerOwnerId === viewerOwnerId;
  const party = ownerOf((viewerPaid ? record.payerOwnerId : record.payeeOwnerId) ?? viewerOwnerId);
  const merchant = record.merchantId === null ? null : ownerOf(record.merchantId);
  const isSale = record.type === 'sale';
  const { returnedAmount, returnDate } = returns ?? noReturns;
  const refunded = Math.min(returnedAmount, record.amount);
  const seesHold = !viewerPaid;
  return {
    tx_id: record.txId,
    entry_date: record.entryDate,
    return_date: returnDate,
    user_id: party?.kind === 'user' ? party.id : null,
    merchant_id: merchant?.id ?? (party?.kind === 'merchant' ? party.id : null),
    state: record.state,
    type: record.type,
    tx_class: record.txClass,
    merchant_batch_id: record.merchantBatchId,
    billing_address: null,
    shipping_address: null,
    debit_credit: viewerPaid ? 'D' : 'C',
    amount: facts.paidInCoins?.amount ?? record.amount,
    fee: record.fee,
    currency: facts.paidInCoins?.currency ?? record.currency,
    terminal_id: null,
    invoice_no: null,
    custom_1: null,
    error_code: null,
    fi_response_code: null,
    fi_response_text: record.state === 'failed' || record.state === 'rejected' ? record.reason : null,
    parent_tx_id: record.parentTxId,
    ip_address: null,
    // Only a sale given back in full is refunded; part of it is partially_refunded.
    refunded: isSale && refunded > 0 && refunded >= record.amount,
    cart: [],
    payment_method_type: record.paymentMethodType,
    payment_method: record.paymentMethodId,
    customer_Name: null,
    reference: record.reference,
    hold_amount: seesHold ? record.holdAmount : null,
    hold_release_at: seesHold ? record.holdReleaseAt : null,
    wallet_change: facts.walletChange,
    funding: facts.funding,
    counterparty: facts.counterparty,
    quote: facts.quote,
    partially_refunded: isSale && refunded > 0 && refunded < record.amount,
    refunded_amount: isSale ? refunded : 0,
    refundable_amount: isSale ? record.amount - refunded : 0,
  };
}

/** A `ledger_transactions` row as the record its stream folds to: the inverse of ledger-store's transactionRow. */
export function transactionRecordOf(row: Selectable<LedgerTransactionsTable>): TransactionRecord {
  const instant = (value: Date | null) => value?.toISOString() ?? null;
  return {
    txId: row.tx_id,
    type: row.type as TransactionType,
    state: row.state as TransactionState,
    txClass: row.tx_class,
    entryDate: row.entry_date.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    amount: row.amount,
    fee: row.fee,
    currency: row.currency as Currency,
    payerOwnerId: row.payer_owner_id,
    payerWalletId: row.payer_wallet_id,
    payeeOwnerId: row.payee_owner_id,
    payeeWalletId: row.payee_wallet_id,
    merchantId: row.merchant_id,
    merchantBatchId: row.merchant_batch_id,
    paymentMethodId: row.payment_method_id,
    paymentMethodType: row.payment_method_type,
    reference: row.reference,
    reason: row.reason,
    holdAmount: row.hold_amount,
    holdReleaseAt: instant(row.hold_release_at),
    holdReleasedAt: instant(row.hold_released_at),
    expiresAt: instant(row.expires_at),
    parentTxId: row.parent_tx_id,
    payment:
      row.payment && isCurrency(row.payment.currency)
        ? { amount: row.payment.amount, currency: row.payment.currency }
        : null,
    reservedCoins: row.reserved_coins as Coin[],
    version: row.version,
  };
}
