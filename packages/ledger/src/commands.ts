import type {
  CardFunding,
  Cash,
  CoinPayment,
  DepositMethod,
  PaymentMethodRef,
  TransferKind,
  WithdrawalDestination,
} from './events.ts';
import type { Currency } from './money.ts';
import type { RateMicros } from './amounts.ts';

/**
 * What callers ask the ledger to do. Every command names its transaction id:
 * the caller chooses it, so a retried command finds its transaction already
 * there instead of moving money twice. Wallets are named by owner and
 * currency. Amounts are minor units of the currency they are in.
 */
export type LedgerCommand =
  | {
      type: 'PurchaseCoins';
      txId: string;
      ownerId: string;
      charge: Cash;
      rateMicros: RateMicros;
      paymentMethod: PaymentMethodRef;
      /** The quote the person confirmed (or the one the current price made), for the history to explain the rate. */
      quoteId?: string;
    }
  | {
      type: 'DepositByCard';
      txId: string;
      ownerId: string;
      amount: number;
      currency: Currency;
      paymentMethod: PaymentMethodRef;
    }
  | {
      type: 'EnterDeposit';
      txId: string;
      ownerId: string;
      method: DepositMethod;
      payment: Cash;
      rateMicros: RateMicros;
      reference: string;
      expiresAt: string | null;
      /** The quote the person was shown, for the history to explain the rate. */
      quoteId?: string;
    }
  | { type: 'ClearDeposit'; txId: string; clearedBy: string }
  | { type: 'RejectDeposit'; txId: string; reason: string; rejectedBy: string }
  | { type: 'ExpireDeposit'; txId: string }
  | {
      /** An operator credits the satoshis a flagged bitcoin deposit received, at its quote's rate: a transaction of its own. */
      type: 'CreditBitcoinPayment';
      txId: string;
      depositTxId: string;
      ownerId: string;
      sats: number;
      coins: number;
      creditedBy: string;
      /**
       * What the satoshis were worth at the deposit's quote: with it the
       * credit is a conversion through the exchange accounts, as a cleared
       * deposit is; without it, coins minted from the bitcoin-funding account.
       */
      payment?: Cash;
    }
  | {
      type: 'Transfer';
      txId: string;
      kind: TransferKind;
      fromOwnerId: string;
      toOwnerId: string;
      amount: number;
      fee: number;
      currency: Currency;
      memo: string | null;
      /** Charged to a card: the payer's wallet is untouched and the card-funding account pays. */
      fundedBy?: CardFunding;
      /** A USD or CAD price paid from the payer's coins at a quote: the coins are converted through the exchange. */
      paidFromCoins?: CoinPayment;
    }
  | { type: 'ReleaseHold'; txId: string }
  | {
      type: 'RequestWithdrawal';
      txId: string;
      ownerId: string;
      amount: number;
      currency: Currency;
      destination: WithdrawalDestination;
      /** Coins are paid out as cash: this much, at the quote `quoteId`. */
      payout?: Cash;
      quoteId?: string;
    }
  | {
      /**
       * The payout was made. `payout`, the cash a coin withdrawal was paid
       * out as (its quote's), converts the coins through the exchange
       * accounts; without it, the coins go to the payout account as coins.
       */
      type: 'ProcessWithdrawal';
      txId: string;
      payoutReference: string;
      payout?: Cash;
    }
  | { type: 'FailWithdrawal'; txId: string; reason: string }
  | {
      type: 'SettleMerchantBatch';
      txId: string;
      merchantId: string;
      batchId: string;
      amount: number;
      fee: number;
      currency: Currency;
    }
  | {
      /**
       * A merchant gives back `amount` of a sale (`saleTxId`), in part or in
       * full, as a new transaction. With `cardCharge` (the sale's charge, in
       * the charge's currency), the sale was charged to a card and the money
       * goes back to it: the processor's refund is the return's share of the
       * charge (card-refunds.ts), decided against the sale's returns so far.
       * Otherwise it goes back to the buyer's wallet.
       */
      type: 'ReturnSale';
      txId: string;
      saleTxId: string;
      merchantOwnerId: string;
      amount: number;
      reason: string;
      cardCharge: Cash | null;
      /** For a cash price paid from coins: the coins the sale took (its opening event's), given back by share. */
      coinsPaid?: number | null;
    }
  | { type: 'ConfirmCardRefund'; txId: string; refundReference: string }
  /** The processor refused a return's card refund for good: the money goes back to the merchant. */
  | { type: 'FailCardRefund'; txId: string; reason: string }
  | { type: 'ChargePlatformFee'; txId: string; ownerId: string; amount: number; currency: Currency; reason: string }
  | {
      type: 'CorrectBalance';
      txId: string;
      ownerId: string;
      amount: number;
      currency: Currency;
      reason: string;
      operatorId: string;
    };

export type LedgerCommandType = LedgerCommand['type'];

/** Commands that move an existing transaction on; the rest open a new one. */
export const followUpCommands = [
  'ClearDeposit',
  'RejectDeposit',
  'ExpireDeposit',
  'ReleaseHold',
  'ProcessWithdrawal',
  'FailWithdrawal',
  'ConfirmCardRefund',
  'FailCardRefund',
] as const satisfies readonly LedgerCommandType[];
export type FollowUpCommand = Extract<LedgerCommand, { type: (typeof followUpCommands)[number] }>;

export function isFollowUp(command: LedgerCommand): command is FollowUpCommand {
  return (followUpCommands as readonly string[]).includes(command.type);
}

/** A return is decided against its sale, which the store reads, and alone: the sale's remainder is checked at commit. */
export type SaleReturnCommand = Extract<LedgerCommand, { type: 'ReturnSale' }>;
export const isSaleReturn = (command: LedgerCommand): command is SaleReturnCommand => command.type === 'ReturnSale';
