import type { AccountId, Coin, LedgerNeeds, WalletState } from '@peeks/ledger';
import { spendingOf } from './batch-state.ts';
import type { ReadState } from './execute.ts';

/** A wallet as a committed batch left it: its state and version, and its coins when they were known. */
interface KnownWallet {
  wallet: WalletState;
  version: number;
  coins: Coin[] | undefined;
  readUpTo: Coin | undefined;
}

/**
 * What the group commit knows of the wallets its batches read and wrote,
 * so that a batch on known wallets need not read them again: one round
 * trip of two a batch. Trusted only as far as the commit's version check
 * goes: a wallet changed elsewhere (another process, a command run alone)
 * fails the batch with 40001 without writing, and the batch's wallets are
 * then forgotten and read afresh. A refusal decided on what was known, and
 * not confirmed by that check, is not answered: see GroupCommit.
 *
 * Only wallets are kept (they have versions), at most `capacity`, the least
 * recently used going first.
 */
export class KnownWallets {
  readonly #known = new Map<AccountId, KnownWallet>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The state known for the commands' needs, and what is left to read: wallets not known, and spenders whose known coins may not cover what they pay. */
  recall(needs: readonly LedgerNeeds[]): { known: ReadState; unknown: LedgerNeeds[] } {
    const known: ReadState = { wallets: new Map(), versions: new Map(), coins: new Map(), readUpTo: new Map() };
    const unknownWallets = new Set<AccountId>();
    const unknown: LedgerNeeds[] = [];
    const spending = spendingOf(needs);
    for (const walletId of new Set(needs.flatMap((need) => [...need.wallets, ...(need.coins ? [need.coins.walletId] : [])]))) {
      const entry = this.#known.get(walletId);
      const pays = spending.get(walletId);
      const coinsCover = entry?.coins && (!entry.readUpTo || entry.coins.reduce((sum, coin) => sum + coin.value, 0) >= (pays ?? 0));
      if (!entry || (pays !== undefined && !coinsCover)) {
        unknownWallets.add(walletId);
        if (pays !== undefined) unknown.push({ wallets: [], coins: { walletId, amount: pays } });
        continue;
      }
      known.wallets.set(walletId, entry.wallet);
      known.versions.set(walletId, entry.version);
      // Coins known of a payee too, so that what it receives keeps them up to date.
      if (entry.coins) known.coins.set(walletId, [...entry.coins]);
      if (entry.coins && entry.readUpTo) known.readUpTo.set(walletId, entry.readUpTo);
    }
    if (unknownWallets.size > 0) unknown.push({ wallets: [...unknownWallets], coins: null });
    return { known, unknown };
  }

  /** Keeps what a committed batch left (or read, for wallets it did not change). */
  remember(state: ReadState): void {
    for (const [walletId, wallet] of state.wallets) {
      const version = state.versions.get(walletId);
      if (version === undefined) continue;
      const coins = state.coins.get(walletId);
      this.#known.delete(walletId);
      this.#known.set(walletId, { wallet, version, coins: coins && [...coins], readUpTo: state.readUpTo.get(walletId) });
    }
    for (const walletId of this.#known.keys()) {
      if (this.#known.size <= this.#capacity) break;
      this.#known.delete(walletId);
    }
  }

  forget(walletIds: Iterable<AccountId>): void {
    for (const walletId of walletIds) this.#known.delete(walletId);
  }
}

/** Two states of different wallets (what was known, what was read) as one. */
export function mergeReadStates(first: ReadState, second: ReadState): ReadState {
  return {
    wallets: new Map([...first.wallets, ...second.wallets]),
    versions: new Map([...first.versions, ...second.versions]),
    coins: new Map([...first.coins, ...second.coins]),
    readUpTo: new Map([...first.readUpTo, ...second.readUpTo]),
  };
}
