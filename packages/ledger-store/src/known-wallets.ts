import type { AccountId, Coin, LedgerNeeds, WalletState } from '@peeks/ledger';
import { spendingOf } from './read-state.ts';
import type { ReadState } from './types.ts';

/** How long a wallet moved elsewhere is read for every batch (see KnownWallets). */
const MOVED_ELSEWHERE_MS = 60_000;

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
  /** A batch decided on it was refused by the commit's version check: read it before deciding again. */
  doubted: boolean;
}

/**
 * What the group commit last saw of the wallets it worked on, so that a
 * batch whose wallets are all known needs no read: one round trip (the
 * commit) instead of two. Nothing here is trusted further than the commit's
 * version check, which every change to a wallet's balances or coins passes
 * through: when another process (or a lone command of this one) has moved a
 * wallet since, the commit refuses the batch, whose wallets are then
 * doubted and read again. A refusal decided against what is known is
 * confirmed against a fresh read before it is answered, since the money
 * that was missing may have come in since.
 *
 * Where several processes take turns on the same wallets (API processes
 * behind a load balancer), deciding on what one knew would make most
 * commits fail and go round again, which costs more than the read it
 * saves. While the process follows the commits' announcements
 * (`following`), a wallet announced at a newer version is forgotten at
 * once, and read by the next batch that needs it. Without them, a doubted
 * wallet whose read shows another version was moved elsewhere, and is read
 * for every batch for MOVED_ELSEWHERE_MS.
 *
 * The oldest known wallets make way past `capacity`, so that memory stays
 * bounded however many wallets the ledger holds.
 */
export class KnownWallets {
  readonly #capacity: number;
  readonly #now: () => number;
  readonly #known = new Map<AccountId, Entry>();
  /** Wallets moved behind this group commit's back lately, and until when they are read for every batch; oldest first. */
  readonly #movedElsewhere = new Map<AccountId, number>();
  /** Every commit's new wallet versions reach this process (see `announced`). */
  following = false;

  constructor(capacity: number, now: () => number = () => performance.now()) {
    this.#capacity = capacity;
    this.#now = now;
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
  recall(
    needs: readonly LedgerNeeds[],
    unknown: ReadonlySet<AccountId> = new Set(),
  ): { known: ReadState; toRead: LedgerNeeds[] } {
    const spending = spendingOf(needs);
    const toRead = new Set<AccountId>();
    const known: ReadState = { wallets: new Map(), versions: new Map(), coins: new Map(), readUpTo: new Map() };
    this.#forgetMovesBefore(this.#now());
    for (const walletId of new Set(needs.flatMap((need) => need.wallets))) {
      const entry = unknown.has(walletId) || this.#movedElsewhere.has(walletId) ? undefined : this.#known.get(walletId);
      const paying = spending.get(walletId);
      if (!entry || entry.doubted || (paying !== undefined && !covers(entry, paying))) {
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
      entry.doubted = false;
    } else {
      entry = {
        wallet: { ...update.wallet },
        version: update.version,
        coins: undefined,
        readUpTo: undefined,
        doubted: false,
      };
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

  /** The commit refused a batch decided on these wallets: read them again, and see which of them moved (`noteRead`). */
  doubt(walletIds: Iterable<AccountId>): void {
    for (const walletId of walletIds) {
      const entry = this.#known.get(walletId);
      if (entry) entry.doubted = true;
    }
  }

  /** A commit elsewhere left the wallet at `version`: what is known of an older one is forgotten. */
  announced(walletId: AccountId, version: number): void {
    const entry = this.#known.get(walletId);
    if (entry && entry.version < version) this.#known.delete(walletId);
  }

  forgetAll(): void {
    this.#known.clear();
  }

  /** Wallets as just read: a doubted one at another version than the one known was moved elsewhere, unless announcements tell of such moves. */
  noteRead(versions: ReadonlyMap<AccountId, number>): void {
    if (this.following) return;
    const until = this.#now() + MOVED_ELSEWHERE_MS;
    for (const [walletId, version] of versions) {
      const entry = this.#known.get(walletId);
      if (!entry?.doubted || entry.version === version) continue;
      this.#movedElsewhere.delete(walletId);
      this.#movedElsewhere.set(walletId, until);
    }
  }

  #forgetMovesBefore(now: number): void {
    for (const [walletId, until] of this.#movedElsewhere) {
      if (until > now) return;
      this.#movedElsewhere.delete(walletId);
    }
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
  const count = Math.min(update.coins.length, KNOWN_COINS);
  for (let index = 0; index < count; index++) kept[index] = update.coins[index] as Coin;
  kept.length = count;
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
