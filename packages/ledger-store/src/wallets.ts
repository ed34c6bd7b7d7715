import { appendToStream, StreamVersionConflict, type Database, type EventMetadata, type WalletsTable } from '@peeks/db';
import {
  currencies,
  decideCloseWallet,
  decideOpenWallet,
  walletIdOf,
  walletStream,
  type AccountId,
  type Currency,
  type WalletState,
} from '@peeks/ledger';
import { sql, type Kysely, type Selectable } from 'kysely';
import { projectWalletEvent, type StoredWalletEvent } from './inline-projection.ts';

export function walletStateOf(row: Omit<Selectable<WalletsTable>, 'opened_at'>): WalletState {
  return {
    walletId: row.wallet_id,
    ownerId: row.owner_id,
    currency: row.currency as Currency,
    status: row.status as WalletState['status'],
    total: row.total,
    available: row.available,
    withdrawable: row.withdrawable,
    reserved: row.reserved,
  };
}

/**
 * Locks the wallets a command names, in wallet id order, so two commands
 * over the same wallets always queue in the same order and never deadlock.
 * Missing wallets are simply absent from the map.
 */
export async function lockWallets(
  db: Kysely<Database>,
  walletIds: readonly AccountId[],
): Promise<Map<AccountId, WalletState>> {
  if (walletIds.length === 0) return new Map();
  const { rows } = await sql<Selectable<WalletsTable>>`
    SELECT * FROM wallets WHERE wallet_id = ANY(${[...new Set(walletIds)]}::text[]) ORDER BY wallet_id COLLATE "C" FOR UPDATE
  `.execute(db);
  return new Map(rows.map((row) => [row.wallet_id, walletStateOf(row)]));
}

/**
 * Opens the owner's wallets in the given currencies (all four by default).
 * Already open ones are left as they are, so this is safe to retry.
 */
export async function openWallets(
  db: Kysely<Database>,
  ownerId: string,
  options: { currencies?: readonly Currency[]; metadata?: Partial<EventMetadata>; now?: () => Date } = {},
): Promise<AccountId[]> {
  const wanted = options.currencies ?? currencies;
  const run = async (trx: Kysely<Database>) => {
    const existing = await lockWallets(
      trx,
      wanted.map((currency) => walletIdOf(ownerId, currency)),
    );
    for (const currency of wanted) {
      const walletId = walletIdOf(ownerId, currency);
      const events = decideOpenWallet(ownerId, currency, existing.get(walletId));
      if (events.length === 0) continue;
      const appended = await appendToStream(trx, walletStream(walletId), events, {
        expectedVersion: 0,
        ...pick(options),
      }).catch((error: unknown) => {
        // Opened by a concurrent call in the meantime: that is what we wanted.
        if (error instanceof StreamVersionConflict) return null;
        throw error;
      });
      for (const event of appended?.events ?? []) await projectWalletEvent(trx, event as StoredWalletEvent);
    }
    return wanted.map((currency) => walletIdOf(ownerId, currency));
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

export async function closeWallet(
  db: Kysely<Database>,
  walletId: AccountId,
  options: { metadata?: Partial<EventMetadata>; now?: () => Date } = {},
): Promise<void> {
  const run = async (trx: Kysely<Database>) => {
    const events = decideCloseWallet(walletId, (await lockWallets(trx, [walletId])).get(walletId));
    if (events.length === 0) return;
    const appended = await appendToStream(trx, walletStream(walletId), events, {
      expectedVersion: 'any',
      ...pick(options),
    });
    for (const event of appended.events) await projectWalletEvent(trx, event as StoredWalletEvent);
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}

function pick(options: { metadata?: Partial<EventMetadata>; now?: () => Date }) {
  return { ...(options.metadata ? { metadata: options.metadata } : {}), ...(options.now ? { now: options.now } : {}) };
}
