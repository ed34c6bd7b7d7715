import type { AccountId, Coin, LedgerNeeds, WalletState } from '@peeks/ledger';
import { spendingOf } from './batch-state.ts';
import type { ReadState } from './execute.ts';

/** Coins kept per wallet, in spending order: as many as `ledger_state` reads first. */
const KNOWN_COINS = 16;

/** One wallet as a batch left it, or as it was last read. */
export interface KnownWallet {
  wallet: WalletState;
  version: number;
  /** Its first held coins in spending order; absent when it was never read as a spender. */
  coins?: Coin[];
  /** The last coin read, while some of its coins were left unread (see BatchState). */
  readUpTo?: Coin;
}

/** A known wallet as kept: its own objects, updated in place. */
interface Entry {
  wallet: WalletState;
  version: number;
  coins: Coin[] | undefined;
  readUpTo: Coin | undefined;
}

/**
 * What the group commit last saw of the wallets it worked on, so that a
 * batch whose wallets are all known needs no read: one round trip (the
 * commit) instead of two. Nothing here is trusted further than the commit's
 * version check, which every change to a wallet's balances or coins passes
 * through: when another process (or a lone command of this one) has moved a
 * wallet since, the commit refuses the batch, whose wallets are then
 * forgotten and read again. A refusal decided against what is known is
 * confirmed against a fresh read before it is answered, since the money
 * that was missing may have come in since.
 *
 * The oldest known wallets make way past `capacity`, so that memory stays
 * bounded however many wallets the ledger holds.
 */
export class KnownWallets {
  readonly #capacity: number;
  readonly #known = new Map<AccountId, Entry>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#known.size;
  }

  /**
   * What is known of the wallets the commands need, and what must be read:
   * a wallet not known, or a spender whose known coins may not cover what
   * the commands pay from it. A wallet to be read is left out of `known`
   * altogether, so that its balances and coins come from the one read.
   */
  recall(needs: readonly LedgerNeeds[], unknown: ReadonlySet<AccountId> = new Set()): { known: ReadState; toRead: LedgerNeeds[] } {
    const spending = spendingOf(needs);
    const toRead = new Set<AccountId>();
    const known: ReadState = { wallets: new Map(), versions: new Map(), coins: new Map(), readUpTo: new Map() };
    for (const walletId of new Set(needs.flatMap((need) => need.wallets))) {
      const entry = unknown.has(walletId) ? undefined : this.#known.get(walletId);
      const paying = spending.get(walletId);
      if (!entry || (paying !== undefined && !covers(entry, paying))) {
        toRead.add(walletId);
        continue;
      }
      known.wallets.set(walletId, entry.wallet);
      known.versions.set(walletId, entry.version);
      if (entry.coins) known.coins.set(walletId, entry.coins);
      if (entry.readUpTo) known.readUpTo.set(walletId, entry.readUpTo);
    }
    return {
      known,
      toRead:
        toRead.size === 0
          ? []
          : [
              { wallets: [...toRead], coins: null },
              ...[...toRead].flatMap((walletId) => {
                const amount = spending.get(walletId);
                return amount === undefined ? [] : [{ wallets: [], coins: { walletId, amount } }];
              }),
            ],
    };
  }

  /**
   * What a batch left of a wallet (or read of it); also marks it the last to
   * make way, as each batch remembers every wallet it used. A wallet known
   * already is updated in place: the entries outlive the young generation,
   * and a new one per batch was garbage for the old one, which grew the API
   * server's peak memory by some 30 MB under bench:api.
   */
  remember(walletId: AccountId, update: KnownWallet): void {
    let entry = this.#known.get(walletId);
    if (entry) {
      this.#known.delete(walletId);
      Object.assign(entry.wallet, update.wallet);
      entry.version = update.version;
    } else {
      entry = { wallet: { ...update.wallet }, version: update.version, coins: undefined, readUpTo: undefined };
    }
    keepFirstCoins(entry, update);
    this.#known.set(walletId, entry);
    if (this.#known.size > this.#capacity) {
      const oldest = this.#known.keys().next();
      if (!oldest.done) this.#known.delete(oldest.value);
    }
  }

  forget(walletIds: Iterable<AccountId>): void {
    for (const walletId of walletIds) this.#known.delete(walletId);
  }
}

/**
 * Keeps at most the first KNOWN_COINS of the wallet's coins, in its own
 * array: a merchant paid a thousand times would otherwise hold a thousand
 * coins here, copied into each batch. The rest count as unread, coming
 * after the last one kept.
 */
function keepFirstCoins(entry: Entry, update: KnownWallet): void {
  if (!update.coins) {
    entry.coins = undefined;
    entry.readUpTo = undefined;
    return;
  }
  const kept = entry.coins ?? [];
  if (kept !== update.coins) {
    kept.length = 0;
    for (const coin of update.coins.slice(0, KNOWN_COINS)) kept.push(coin);
  }
  kept.length = Math.min(kept.length, KNOWN_COINS);
  entry.coins = kept;
  entry.readUpTo = update.coins.length > KNOWN_COINS ? update.coins[KNOWN_COINS - 1] : update.readUpTo;
}

/** Whether the coins known of a spender say if it can pay `amount`: all of them are known, or those known are enough. */
function covers(entry: Entry, amount: number): boolean {
  if (!entry.coins) return false;
  if (!entry.readUpTo) return true;
  return entry.coins.reduce((sum, coin) => sum + coin.value, 0) >= amount;
}

/** The state known with the state read: they name different wallets (see `recall`). */
export function withRead(known: ReadState, read: ReadState): ReadState {
  return {
    wallets: new Map([...known.wallets, ...read.wallets]),
    versions: new Map([...known.versions, ...read.versions]),
    coins: new Map([...known.coins, ...read.coins]),
    readUpTo: new Map([...known.readUpTo, ...read.readUpTo]),
  };
}
