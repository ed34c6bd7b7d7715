import type { Database, WalletsTable } from '@peeks/db';
import { byPreference, type AccountId, type Coin, type LedgerNeeds } from '@peeks/ledger';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ReadState } from './types.ts';
import { walletStateOf } from './wallets.ts';

/** A wallet row as `ledger_state` returns it (JSON: its timestamp stays text). */
type WalletStateRow = Omit<Selectable<WalletsTable>, 'opened_at'>;

/** A coin as read, its maturity (PostgreSQL's text) as the ledger writes times. */
const coinOf = (coin: Coin): Coin =>
  coin.maturesAt === undefined ? coin : { ...coin, maturesAt: new Date(coin.maturesAt).toISOString() };

/** What a command's coins must cover: its amount, or nothing when that is not a valid amount (its decision refuses it). */
export const coinsToCover = (amount: number) => (Number.isSafeInteger(amount) && amount > 0 ? amount : 0);

/** What each spender the commands name pays in all. */
export function spendingOf(needs: readonly LedgerNeeds[]): Map<AccountId, number> {
  const spending = new Map<AccountId, number>();
  for (const { coins } of needs) {
    if (coins) spending.set(coins.walletId, (spending.get(coins.walletId) ?? 0) + coinsToCover(coins.amount));
  }
  return spending;
}

/**
 * The wallets the commands name and each spender's covering coins, in one
 * round trip (`ledger_state`, sql/ledger-state.sql). A spender named by
 * several commands is read once, for the sum of their amounts. With
 * `lock`, inside a caller's transaction, the wallets are locked as they
 * are read, so their versions cannot move. A spender some command cashes
 * out is read until its coins matured by `cashOutAt` cover the sum (the
 * decision is at that time or later, when no fewer have matured).
 */
export async function readLedgerState(
  db: Kysely<Database>,
  needs: readonly LedgerNeeds[],
  lock: boolean,
  cashOutAt: Date = new Date(),
): Promise<ReadState> {
  const spending = spendingOf(needs);
  const cashingOut = new Set(needs.flatMap(({ coins }) => (coins?.cashOut ? [coins.walletId] : [])));
  const { rows } = await sql<{
    state: { wallets: WalletStateRow[]; coins: Record<AccountId, Coin[]>; complete?: AccountId[] };
  }>`
    SELECT ledger_state(
      ${[...new Set(needs.flatMap((need) => need.wallets))]}::text[], ${lock},
      ${[...spending.keys()]}::text[], ${[...spending.values()]}::numeric[],
      ${[...spending.keys()].map((holder) => (cashingOut.has(holder) ? cashOutAt.toISOString() : null))}::timestamptz[]
    ) AS state
  `.execute(db);
  const state = rows[0]?.state ?? { wallets: [], coins: {} };
  const coins = new Map(
    Object.entries(state.coins).map(([holder, held]) => [holder, held.map(coinOf).sort(byPreference)]),
  );
  const complete = new Set(state.complete);
  const readUpTo = new Map<AccountId, Coin>();
  for (const [holder, held] of coins) {
    const last = held.at(-1);
    if (last && !complete.has(holder)) readUpTo.set(holder, last);
  }
  return {
    wallets: new Map(state.wallets.map((row) => [row.wallet_id, walletStateOf(row)])),
    versions: new Map(state.wallets.map((row) => [row.wallet_id, row.version])),
    coins,
    readUpTo,
  };
}
