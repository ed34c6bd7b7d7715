import type { AccountId } from '../accounts.ts';
import type { WalletBalance } from '../balance.ts';
import { maturedCoins, type Coin, type NewSerial } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { Currency } from '../money.ts';
import type { TransactionRecord } from '../transaction.ts';

export type WalletStatus = 'open' | 'closed';
export type WalletState = WalletBalance & {
  walletId: AccountId;
  ownerId: string;
  currency: Currency;
  status: WalletStatus;
};

/**
 * What a command is decided against: its transaction so far (follow-up
 * commands), the wallets it names as they are now, and the coins it may
 * spend (a largest-first prefix of the spender's held coins covering the
 * amount; see `LedgerNeeds`).
 */
export type LedgerState = {
  tx: TransactionRecord | null;
  /** For a return: the sale, and what its returns have given back so far. */
  sale?: SaleState | null;
  wallets: ReadonlyMap<AccountId, WalletState>;
  coins: readonly Coin[];
};

/**
 * A sale and its standing returns (every one but those `failed`, whose
 * money went back to the merchant): what they took back, and what their
 * card refunds came to (0 for a sale not charged to a card).
 */
export type SaleState = { record: TransactionRecord; returned: number; cardRefunded: number };

/**
 * What a command needs loaded (and locked) before it can be decided. A
 * cash-out's coins must cover its amount with coins matured by then, so
 * more of them may have to be read.
 */
export type LedgerNeeds = {
  wallets: AccountId[];
  coins: { walletId: AccountId; amount: number; cashOut?: true } | null;
};

/**
 * The world outside the ledger, passed in so that tests choose it. Coins
 * bought by card mature `cardFundsHoldHours` after they are bought.
 */
export type DecideContext = { now: Date; newSerial: NewSerial; holdHours: number; cardFundsHoldHours: number };

/** The product's default for `cardFundsHoldHours`: a week. */
export const DEFAULT_CARD_FUNDS_HOLD_HOURS = 168;

const HOUR = 3_600_000;

/** When coins bought by card at `now` mature; undefined when they do at once. */
export function cardCoinsMatureAt({ now, cardFundsHoldHours }: DecideContext): string | undefined {
  return cardFundsHoldHours > 0 ? new Date(now.getTime() + cardFundsHoldHours * HOUR).toISOString() : undefined;
}

export function openWallet(state: LedgerState, walletId: AccountId): WalletState {
  const wallet = state.wallets.get(walletId);
  if (!wallet) return refuse('wallet_not_found', `${walletId} does not exist`);
  if (wallet.status !== 'open') return refuse('wallet_closed', `${walletId} is closed`);
  return wallet;
}

export function requireAvailable(wallet: WalletState, amount: number): void {
  if (wallet.available < amount)
    refuse('insufficient_funds', `${wallet.walletId} has ${wallet.available} available, needs ${amount}`);
}

export function requireWithdrawable(wallet: WalletState, amount: number): void {
  requireAvailable(wallet, amount);
  if (wallet.withdrawable < amount)
    refuse('funds_on_hold', `${wallet.walletId} has ${wallet.withdrawable} withdrawable, needs ${amount}`);
}

/**
 * The coins of `held` a cash-out of `amount` (a withdrawal, a merchant's
 * settlement) may take at `now`: those matured. Coins bought by card that
 * have not refuse it, saying when enough will have; the coins read cover
 * the amount with matured coins, or are all of the wallet's (see
 * LedgerNeeds), so that time is the wallet's own.
 */
export function cashableCoins(held: readonly Coin[], walletId: AccountId, amount: number, now: Date): Coin[] {
  const { matured, enoughFrom } = maturedCoins(held, amount, now);
  const short = amount - matured.reduce((sum, coin) => sum + coin.value, 0);
  if (short > 0 && enoughFrom !== null) {
    refuse(
      'card_funds_maturing',
      `${walletId} has ${short} of ${amount} in coins bought by card that mature by ${enoughFrom}`,
      enoughFrom,
    );
  }
  return matured;
}

export function requireTransaction(tx: TransactionRecord | null, txId: string): TransactionRecord {
  return tx ?? refuse('transaction_not_found', `transaction ${txId} does not exist`);
}

export function requireCashCurrency(currency: Currency): void {
  if (currency !== 'USD' && currency !== 'CAD') refuse('currency_mismatch', `${currency} is not a cash currency`);
}
