import {
  applyBalanceChange,
  balanceChangesOf,
  byPreference,
  type AccountId,
  type Coin,
  type CoinStep,
  type LedgerNeeds,
  type TransactionEvent,
  type WalletState,
} from '@peeks/ledger';
import { coinsToCover } from './read-state.ts';
import type { ReadState } from './types.ts';

/**
 * The state a group-commit batch decides against, carried from one decision
 * to the next: a command on a wallet that an earlier command of the batch
 * changed is decided against what that command left, exactly as it would
 * be had that one committed first.
 *
 * A spender's coins were read as the first of its held coins in spending
 * order. While some were left unread, a coin that comes to it (the change
 * of a split, a payment received) can be placed only ahead of the last coin
 * read, where nothing unread can come before it; a coin that would go after
 * is left out, so that the coins known stay a prefix of the spending order.
 * A command those coins do not cover cannot be decided here, and waits for
 * a batch that reads again.
 */
export class BatchState {
  readonly #wallets: Map<AccountId, WalletState>;
  readonly #coins: Map<AccountId, Coin[]>;
  readonly #readUpTo: ReadonlyMap<AccountId, Coin>;

  constructor(read: ReadState) {
    this.#wallets = new Map(read.wallets);
    this.#coins = new Map([...read.coins].map(([holder, coins]) => [holder, [...coins]]));
    this.#readUpTo = read.readUpTo;
  }

  /** The state to decide a command with these needs against; null when the coins known cannot say whether they cover it. */
  stateFor(needs: LedgerNeeds): Pick<ReadState, 'wallets' | 'coins'> | null {
    if (needs.coins && this.#readUpTo.has(needs.coins.walletId)) {
      const known = (this.#coins.get(needs.coins.walletId) ?? []).reduce((sum, coin) => sum + coin.value, 0);
      if (known < coinsToCover(needs.coins.amount)) return null;
    }
    return { wallets: this.#wallets, coins: this.#coins };
  }

  /** A holder's known coins as the commands applied so far leave them; undefined when its coins are not known. */
  coinsOf(holder: AccountId): Coin[] | undefined {
    return this.#coins.get(holder);
  }

  /** Carries a decided command's events into the state. */
  apply(events: readonly TransactionEvent[]): void {
    for (const event of events) {
      for (const [walletId, change] of balanceChangesOf(event)) {
        const wallet = this.#wallets.get(walletId);
        if (wallet) this.#wallets.set(walletId, { ...wallet, ...applyBalanceChange(wallet, change) });
      }
      for (const step of event.data.coins) this.#applyCoinStep(step);
    }
  }

  #applyCoinStep(step: CoinStep): void {
    // A coin keeps its maturity wherever it goes: a later command of the batch may spend or cash it out.
    const coin: Coin =
      'maturesAt' in step
        ? { serial: step.serial, value: step.value, maturesAt: step.maturesAt }
        : { serial: step.serial, value: step.value };
    switch (step.action) {
      case 'mint':
        this.#add(step.to, coin);
        return;
      case 'split':
        this.#remove(step.holder, step.serial);
        for (const child of step.into) this.#add(step.holder, child);
        return;
      case 'move':
        this.#remove(step.from, step.serial);
        this.#add(step.to, coin);
        return;
      case 'reserve':
        this.#remove(step.holder, step.serial);
        return;
      case 'release':
        this.#add(step.holder, coin);
        return;
      case 'burn':
        this.#remove(step.from, step.serial);
        return;
    }
  }

  /** Only the coins of spenders are known; only a place that unread coins cannot come before will do. */
  #add(holder: AccountId, coin: Coin): void {
    const coins = this.#coins.get(holder);
    if (!coins) return;
    const last = this.#readUpTo.get(holder);
    if (last && byPreference(coin, last) > 0) return;
    const at = coins.findIndex((held) => byPreference(coin, held) < 0);
    coins.splice(at === -1 ? coins.length : at, 0, coin);
  }

  #remove(holder: AccountId, serial: string): void {
    const coins = this.#coins.get(holder);
    const at = coins?.findIndex((held) => held.serial === serial) ?? -1;
    if (at !== -1) coins?.splice(at, 1);
  }
}
