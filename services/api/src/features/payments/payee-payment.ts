import {
  merchantOwnerId,
  userOwnerId,
  type CardFunding,
  type CoinPayment,
  type Currency,
  type LedgerCommand,
  type TransferKind,
} from '@peeks/ledger';

/** Who a payment reaches: the wallet owner it lands with, and the kind of transfer that makes it. */
export interface Payee {
  /** The user the payer named. */
  userId: number;
  ownerId: string;
  kind: Extract<TransferKind, 'P2P' | 'PURCHASE'>;
}

/** The payee an owner id and kind describe: a merchant's wallets take purchases, a person's take P2P. */
export const merchantPayee = (userId: number, merchantId: number): Payee => ({
  userId,
  ownerId: merchantOwnerId(merchantId),
  kind: 'PURCHASE',
});
export const personPayee = (userId: number): Payee => ({ userId, ownerId: userOwnerId(userId), kind: 'P2P' });

/**
 * A payment to a payee: the ledger's Transfer, with the fee (0 today)
 * carried as a field. It comes from the payer's wallet balance, or, with
 * `fundedBy`, from a card charged for it (see card-payments' chargeThenRecord,
 * which charges the card before this command runs), or, with
 * `paidFromCoins`, a cash amount from the payer's coins converted at a quote.
 */
export function payeePayment(payment: {
  txId: string;
  payerOwnerId: string;
  payee: Payee;
  amount: number;
  currency: Currency;
  memo: string | null;
  fundedBy?: CardFunding;
  /** A USD or CAD amount paid from the payer's coins at a quote (pricing's coinPriceFor). */
  paidFromCoins?: CoinPayment;
}): LedgerCommand {
  return {
    type: 'Transfer',
    txId: payment.txId,
    kind: payment.payee.kind,
    fromOwnerId: payment.payerOwnerId,
    toOwnerId: payment.payee.ownerId,
    amount: payment.amount,
    fee: 0,
    currency: payment.currency,
    memo: payment.memo,
    ...(payment.fundedBy ? { fundedBy: payment.fundedBy } : {}),
    ...(payment.paidFromCoins ? { paidFromCoins: payment.paidFromCoins } : {}),
  };
}
