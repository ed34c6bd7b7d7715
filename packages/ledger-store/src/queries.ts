import { readStream, toStoredEvent, type Database, type StoredEvent } from '@peeks/db';
import {
  coinAuditOf,
  fromSerialText,
  transactionStream,
  walletIdOf,
  type AccountId,
  type Coin,
  type Currency,
  type TransactionEvent,
  type WalletState,
} from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';
import { walletStateOf } from './wallets.ts';

/**
 * The held coins of an owner's coin wallet that were bought by card and
 * have not matured at `now`: their value, and when the next of them
 * matures (an index range read of coins_maturing).
 */
export async function maturingCoinsOf(
  db: Kysely<Database>,
  ownerId: string,
  now: Date,
): Promise<{ amount: number; releaseAt: string | null }> {
  const row = await db
    .selectFrom('coins')
    .select([sql<string>`coalesce(sum(value), 0)`.as('amount'), sql<Date | null>`min(matures_at)`.as('release_at')])
    .where('holder', '=', walletIdOf(ownerId, 'CON'))
    .where('status', '=', 'held')
    .where('matures_at', '>', now)
    .executeTakeFirst();
  return { amount: Number(row?.amount ?? 0), releaseAt: row?.release_at?.toISOString() ?? null };
}

/** An owner's wallets, one per currency they have opened. */
export async function walletsOf(db: Kysely<Database>, ownerId: string): Promise<WalletState[]> {
  const rows = await db.selectFrom('wallets').selectAll().where('owner_id', '=', ownerId).orderBy('currency').execute();
  return rows.map(walletStateOf);
}

/** The coins a wallet holds (held or reserved for a withdrawal), largest first as they are spent, serial breaking ties: a stable order for paging. */
export async function coinsOf(
  db: Kysely<Database>,
  ownerId: string,
  page: { offset: number; limit: number },
): Promise<{ coins: (Coin & { currency: Currency; status: string })[]; total: number }> {
  const holder = walletIdOf(ownerId, 'CON');
  const inWallet = db.selectFrom('coins').where('holder', '=', holder).where('status', 'in', ['held', 'reserved']);
  const [rows, count] = await Promise.all([
    inWallet
      .select(['serial', 'value', 'status'])
      .orderBy('value', 'desc')
      .orderBy(sql`serial COLLATE "C"`)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    inWallet.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    coins: rows.map((row) => ({ serial: row.serial, value: row.value, currency: 'CON' as const, status: row.status })),
    total: count.total,
  };
}

export type CoinTrailStep = {
  serial: string;
  action: string;
  value: number;
  fromAccount: AccountId | null;
  toAccount: AccountId | null;
  parentSerial: string | null;
  txId: string;
  eventPosition: number;
  /** The event behind the step, and when it was stored. */
  eventType: string;
  eventTime: Date;
  entryDate: Date;
  /** The spec's audit `from_serial`: serial:from account:currency:value. */
  fromSerial: string;
};

/**
 * Everything that happened to a coin serial and to the serials it was split
 * from, back to the event that minted the first of them, oldest first:
 * the audit lines of those serials in the events of the transactions that
 * named them (`coins.tx_ids`).
 */
export async function coinTrail(db: Kysely<Database>, serial: string): Promise<CoinTrailStep[]> {
  const {
    rows: [lineage],
  } = await sql<{ serials: string[] | null; streams: string[] | null }>`
    WITH RECURSIVE lineage AS (
      SELECT serial, parent_serial, tx_ids FROM coins WHERE serial = ${serial}
      UNION
      SELECT coin.serial, coin.parent_serial, coin.tx_ids FROM coins coin JOIN lineage ON coin.serial = lineage.parent_serial
    )
    SELECT array_agg(serial) AS serials,
           (SELECT array_agg(DISTINCT ${transactionStream('')} || tx_id) FROM lineage, unnest(tx_ids) AS tx_id) AS streams
    FROM lineage
  `.execute(db);
  const serials = new Set(lineage?.serials ?? []);
  if (serials.size === 0) return [];
  const events = await db
    .selectFrom('events')
    .selectAll()
    .where('stream_id', 'in', lineage?.streams ?? [])
    .orderBy('position')
    .execute();
  return events.flatMap((row) =>
    auditLinesOf(toStoredEvent(row))
      .filter((line) => serials.has(line.serial))
      .map((line) => ({
        serial: line.serial,
        action: line.action,
        value: line.value,
        fromAccount: line.from_account,
        toAccount: line.to_account,
        parentSerial: line.parent_serial,
        txId: line.tx_id,
        eventPosition: line.event_position,
        entryDate: line.entry_date,
        fromSerial: line.from_serial,
        eventType: row.type,
        eventTime: row.created_at,
      })),
  );
}

/** The coin audit of one transaction (the spec's list-audit by reference number), from its events. */
export async function transactionAudit(db: Kysely<Database>, txId: string) {
  return (await readStream(db, transactionStream(txId))).flatMap(auditLinesOf);
}

/** An event's coin audit lines, with ids `position.index` in the order coinAuditOf gives them. */
function auditLinesOf(event: StoredEvent) {
  return coinAuditOf(event as unknown as TransactionEvent, event.createdAt).map((line, index) => ({
    audit_id: `${event.position}.${index}`,
    tx_id: line.txId,
    event_position: event.position,
    serial: line.serial,
    action: line.action,
    value: line.value,
    from_account: line.fromAccount,
    to_account: line.toAccount,
    parent_serial: line.parentSerial,
    entry_date: line.entryDate,
    from_serial: fromSerialText(line),
  }));
}
