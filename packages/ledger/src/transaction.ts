import type { AccountId } from './accounts.ts';
import type { Coin } from './coins.ts';
import { reservedBy } from './coins.ts';
import type { Cash, TransactionEvent } from './events.ts';
import type { Currency } from './money.ts';
import type { TransactionState, TransactionType } from './words.ts';

export type { TransactionState };

/**
 * A ledger transaction as its stream tells it: the spec's Transaction fields
 * that the ledger knows. The read model stores exactly this, and the
 * deciders of later steps (clear a deposit, release a hold, pay out a
 * withdrawal) decide against it.
 */
export type TransactionRecord = {
  txId: string;
  type: TransactionType;
  state: TransactionState;
  /** The event type that opened it (CoinsPurchased, FundsTransferred, ...). */
  txClass: string;
  entryDate: string;
  updatedAt: string;
  amount: number;
  fee: number;
  currency: Currency;
  payerOwnerId: string | null;
  payerWalletId: AccountId | null;
  payeeOwnerId: string | null;
  payeeWalletId: AccountId | null;
  merchantId: string | null;
  merchantBatchId: string | null;
  paymentMethodId: string | null;
  paymentMethodType: string | null;
  reference: string | null;
  reason: string | null;
  holdAmount: number | null;
  holdReleaseAt: string | null;
  holdReleasedAt: string | null;
  expiresAt: string | null;
  /** The sale a return gives back; null for every other transaction. */
  parentTxId: string | null;
  /** What a deposit is paid in outside the ledger, which its clearing converts to coins; null for every other transaction. */
  payment: Cash | null;
  /** Serials set aside by a pending withdrawal; not a column of the read model. */
  reservedCoins: Coin[];
  /** The stream version this record reflects. */
  version: number;
};

const blank = {
  fee: 0,
  payerOwnerId: null,
  payerWalletId: null,
  payeeOwnerId: null,
  payeeWalletId: null,
  merchantId: null,
  merchantBatchId: null,
  paymentMethodId: null,
  paymentMethodType: null,
  reference: null,
  reason: null,
  holdAmount: null,
  holdReleaseAt: null,
  holdReleasedAt: null,
  expiresAt: null,
  parentTxId: null,
  payment: null,
  reservedCoins: [],
} satisfies Partial<TransactionRecord>;

/** The record after one more event of its stream; `at` is when that event was stored. */
export function evolveTransaction(
  record: TransactionRecord | null,
  event: TransactionEvent,
  at: Date,
): TransactionRecord {
  const when = at.toISOString();
  const opened = (
    fields: Omit<TransactionRecord, keyof typeof blank | 'txId' | 'txClass' | 'entryDate' | 'updatedAt' | 'version'> &
      Partial<TransactionRecord>,
  ) =>
    ({
      ...blank,
      txId: event.data.txId,
      txClass: event.type,
      entryDate: when,
      updatedAt: when,
      version: 1,
      ...fields,
    }) satisfies TransactionRecord;
  const next = (fields: Partial<TransactionRecord>): TransactionRecord => {
    if (!record) throw new Error(`${event.type} for ${event.data.txId} cannot open a transaction`);
    return { ...record, ...fields, updatedAt: when, version: record.version + 1 };
  };

  switch (event.type) {
    case 'CoinsPurchased': {
      const { data } = event;
      return opened({
        type: 'purchase',
        state: 'completed',
        amount: data.amount,
        currency: 'CON',
        payeeOwnerId: data.ownerId,
        payeeWalletId: data.walletId,
        paymentMethodId: data.paymentMethod.id,
        paymentMethodType: data.paymentMethod.type,
      });
    }
    case 'CardDepositMade': {
      const { data } = event;
      return opened({
        type: 'deposit',
        state: 'completed',
        amount: data.amount,
        currency: data.currency,
        payeeOwnerId: data.ownerId,
        payeeWalletId: data.walletId,
        paymentMethodId: data.paymentMethod.id,
        paymentMethodType: data.paymentMethod.type,
      });
    }
    case 'DepositEntered': {
      const { data } = event;
      return opened({
        type: 'deposit',
        state: 'pending',
        amount: data.amount,
        currency: 'CON',
        payeeOwnerId: data.ownerId,
        payeeWalletId: data.walletId,
        paymentMethodType: data.method,
        reference: data.reference,
        expiresAt: data.expiresAt,
        payment: data.payment,
      });
    }
    case 'DepositCleared':
      return next({ state: 'completed' });
    case 'DepositRejected':
      return next({ state: 'rejected', reason: event.data.reason });
    case 'DepositExpired':
      return next({ state: 'expired' });
    case 'BitcoinPaymentCredited': {
      const { data } = event;
      return opened({
        type: 'deposit',
        state: 'completed',
        amount: data.amount,
        currency: 'CON',
        payeeOwnerId: data.ownerId,
        payeeWalletId: data.walletId,
        paymentMethodType: 'bitcoin',
        reference: data.depositTxId,
        payment: data.payment ?? null,
      });
    }
    case 'FundsTransferred': {
      const { data } = event;
      return opened({
        type: data.kind === 'PURCHASE' ? 'sale' : 'transfer',
        state: 'completed',
        amount: data.amount,
        fee: data.fee,
        currency: data.currency,
        payerOwnerId: data.fromOwnerId,
        payerWalletId: data.fromWalletId,
        payeeOwnerId: data.toOwnerId,
        payeeWalletId: data.toWalletId,
        merchantId: data.kind === 'PURCHASE' ? data.toOwnerId : null,
        reference: data.memo,
        holdAmount: data.hold?.amount ?? null,
        holdReleaseAt: data.hold?.releaseAt ?? null,
        paymentMethodId: data.fundedBy?.paymentMethod.id ?? null,
        paymentMethodType: data.fundedBy?.paymentMethod.type ?? null,
      });
    }
    case 'HoldReleased':
      return next({ holdReleasedAt: when });
    case 'WithdrawalRequested': {
      const { data } = event;
      return opened({
        type: 'withdraw',
        state: 'pending',
        amount: data.amount,
        currency: data.currency,
        payerOwnerId: data.ownerId,
        payerWalletId: data.walletId,
        paymentMethodId: data.destination.paymentMethodId,
        paymentMethodType: data.destination.kind,
        reservedCoins: reservedBy(data.coins),
      });
    }
    case 'WithdrawalProcessed':
      return next({ state: 'completed', reference: event.data.payoutReference, reservedCoins: [] });
    case 'WithdrawalFailed':
      return next({ state: 'failed', reason: event.data.reason, reservedCoins: [] });
    case 'MerchantBatchSettled': {
      const { data } = event;
      return opened({
        type: 'settlement',
        state: 'completed',
        amount: data.amount,
        fee: data.fee,
        currency: data.currency,
        payerOwnerId: data.merchantId,
        payerWalletId: data.walletId,
        merchantId: data.merchantId,
        merchantBatchId: data.batchId,
      });
    }
    case 'SaleReturned': {
      const { data } = event;
      return opened({
        type: 'return',
        // A refund of 0 (a share under a minor unit, accruing) has nothing to wait for.
        state: data.cardRefund && data.cardRefund.amount > 0 ? 'pending' : 'completed',
        amount: data.amount,
        currency: data.currency,
        payerOwnerId: data.merchantOwnerId,
        payerWalletId: data.merchantWalletId,
        payeeOwnerId: data.buyerOwnerId,
        payeeWalletId: data.buyerWalletId,
        merchantId: data.merchantOwnerId,
        reason: data.reason,
        paymentMethodId: data.cardRefund?.paymentMethod.id ?? null,
        paymentMethodType: data.cardRefund?.paymentMethod.type ?? null,
        parentTxId: data.saleTxId,
      });
    }
    case 'CardRefundConfirmed':
      return next({ state: 'completed', reference: event.data.refundReference });
    case 'CardRefundFailed':
      // The merchant's reason for the return stays; the processor's is in the event.
      return next({ state: 'failed' });
    case 'PlatformFeeCharged': {
      const { data } = event;
      return opened({
        type: 'fee',
        state: 'completed',
        amount: data.amount,
        currency: data.currency,
        payerOwnerId: data.ownerId,
        payerWalletId: data.walletId,
        reason: data.reason,
      });
    }
    case 'BalanceCorrected': {
      const { data } = event;
      const party =
        data.amount >= 0
          ? { payeeOwnerId: data.ownerId, payeeWalletId: data.walletId }
          : { payerOwnerId: data.ownerId, payerWalletId: data.walletId };
      return opened({
        type: 'correction',
        state: 'completed',
        amount: Math.abs(data.amount),
        currency: data.currency,
        reason: data.reason,
        ...party,
      });
    }
  }
}
