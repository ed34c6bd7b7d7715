import type { AccountId } from './accounts.ts';
import type { CoinStep } from './coins.ts';
import type { RateMicros } from './amounts.ts';
import type { Currency } from './money.ts';
import type { LedgerType } from './words.ts';

/**
 * One leg of a double entry: `amount` minor units added to `account`
 * (negative: taken from it). The postings of an event sum to zero per currency.
 */
export type Posting = { account: AccountId; currency: Currency; amount: number; type: LedgerType };

/** Events of a wallet's own stream, `wallet-<walletId>`. */
export type WalletEvent =
  | { type: 'WalletOpened'; data: { walletId: AccountId; ownerId: string; currency: Currency } }
  | { type: 'WalletClosed'; data: { walletId: AccountId } };

export type TransferKind = 'P2P' | 'ACCT_TO_ACCT' | 'PURCHASE';
export type DepositMethod = 'interac' | 'zelle' | 'bitcoin';
export type PaymentMethodRef = { id: string; type: string };
export type Cash = { amount: number; currency: Currency };
export type WithdrawalDestination = { kind: 'card' | 'bank'; paymentMethodId: string };
/**
 * A payment paid for by charging a stored card instead of the payer's
 * wallet: the card was charged `charge`; for a CON payment, at `rateMicros`
 * (the coins are minted to the payee).
 */
export type CardFunding = { paymentMethod: PaymentMethodRef; charge: Cash; rateMicros: RateMicros | null };
/**
 * A cash price paid from the payer's coins: `coins` CON minor units, at
 * `rateMicros` (the cash currency's rate to the US dollar) and the quote
 * `quoteId` the payer confirmed or the current price made.
 */
export type CoinPayment = { coins: number; rateMicros: RateMicros; quoteId: string };

/** What every money event carries: its transaction, its postings and what it did to coin serials. */
type Movement = { txId: string; postings: Posting[]; coins: CoinStep[] };

/**
 * Events of a ledger transaction's stream, `ledger-<txId>`: the first one
 * opens the transaction, later ones move it through its states.
 */
export type TransactionEvent =
  | {
      type: 'CoinsPurchased';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        amount: number;
        charge: Cash;
        rateMicros: number;
        paymentMethod: PaymentMethodRef;
        quoteId?: string;
      };
    }
  | {
      type: 'CardDepositMade';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        amount: number;
        currency: Currency;
        paymentMethod: PaymentMethodRef;
      };
    }
  | {
      type: 'DepositEntered';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        method: DepositMethod;
        /** What the user pays in, outside the ledger. */
        payment: Cash;
        /** The coins it buys, in CON minor units, credited when cleared. */
        amount: number;
        rateMicros: number;
        reference: string;
        expiresAt: string | null;
        /** The quote the person was shown (absent before deposits were quoted). */
        quoteId?: string;
      };
    }
  | {
      type: 'DepositCleared';
      data: Movement & {
        walletId: AccountId;
        amount: number;
        clearedBy: string;
        /** The cash that cleared, converted through the exchange accounts (absent before it was). */
        payment?: Cash;
      };
    }
  | { type: 'DepositRejected'; data: Movement & { reason: string; rejectedBy: string } }
  | { type: 'DepositExpired'; data: Movement }
  | {
      type: 'BitcoinPaymentCredited';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        /** The flagged bitcoin deposit whose payment this credits. */
        depositTxId: string;
        sats: number;
        /** Coins minted, CON minor units. */
        amount: number;
        creditedBy: string;
        /** The dollars the satoshis were worth at the deposit's quote, converted through the exchange (absent before). */
        payment?: Cash;
      };
    }
  | {
      type: 'FundsTransferred';
      data: Movement & {
        kind: TransferKind;
        fromWalletId: AccountId;
        fromOwnerId: string;
        toWalletId: AccountId;
        toOwnerId: string;
        amount: number;
        fee: number;
        currency: Currency;
        /** Money from others waits `HOLD_HOURS` before it can be withdrawn. */
        hold: { amount: number; releaseAt: string } | null;
        memo: string | null;
        /** Absent for a payment from the payer's wallet (and in events stored before card funding existed). */
        fundedBy?: CardFunding;
        /** A cash price paid from coins: `fromWalletId` is the payer's CON wallet, which gave `coins`. */
        paidFromCoins?: CoinPayment;
      };
    }
  | { type: 'HoldReleased'; data: Movement & { walletId: AccountId; amount: number } }
  | {
      type: 'WithdrawalRequested';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        amount: number;
        currency: Currency;
        destination: WithdrawalDestination;
        /** For coins: the cash they are paid out as, at the quote `quoteId` (absent before quotes existed). */
        payout?: Cash;
        quoteId?: string;
      };
    }
  | {
      type: 'WithdrawalProcessed';
      data: Movement & { walletId: AccountId; amount: number; payoutReference: string; payout?: Cash };
    }
  | { type: 'WithdrawalFailed'; data: Movement & { walletId: AccountId; amount: number; reason: string } }
  | {
      type: 'MerchantBatchSettled';
      data: Movement & {
        walletId: AccountId;
        merchantId: string;
        batchId: string;
        amount: number;
        fee: number;
        currency: Currency;
      };
    }
  | {
      /** A new transaction whose parent is the sale; its money goes back to the buyer's wallet, or to the card. */
      type: 'SaleReturned';
      data: Movement & {
        saleTxId: string;
        merchantOwnerId: string;
        merchantWalletId: AccountId;
        buyerOwnerId: string;
        /** Null when the money goes back to the card the sale was charged to. */
        buyerWalletId: AccountId | null;
        amount: number;
        currency: Currency;
        reason: string;
        /** The processor's refund owed to the card: the return stays pending until it is confirmed. */
        cardRefund: (Cash & { paymentMethod: PaymentMethodRef }) | null;
        /** A sale paid from coins: the coins given back to the buyer's CON wallet for `amount`, by share of what it took. */
        coinsBack?: number;
      };
    }
  | { type: 'CardRefundConfirmed'; data: Movement & { refundReference: string } }
  | {
      /** The processor refused the card's refund for good: what the return took goes back to the merchant. */
      type: 'CardRefundFailed';
      data: Movement & { merchantWalletId: AccountId; amount: number; reason: string };
    }
  | {
      type: 'PlatformFeeCharged';
      data: Movement & { walletId: AccountId; ownerId: string; amount: number; currency: Currency; reason: string };
    }
  | {
      type: 'BalanceCorrected';
      data: Movement & {
        walletId: AccountId;
        ownerId: string;
        amount: number;
        currency: Currency;
        reason: string;
        operatorId: string;
      };
    };

export type TransactionEventType = TransactionEvent['type'];
export type LedgerEvent = WalletEvent | TransactionEvent;

export const walletStream = (walletId: AccountId) => `wallet-${walletId}`;
export const transactionStream = (txId: string) => `ledger-${txId}`;
