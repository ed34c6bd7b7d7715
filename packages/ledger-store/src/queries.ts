import type { Database } from '@peeks/db';
import { fromSerialText, walletIdOf, type AccountId, type Coin, type Currency, type WalletState } from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';
import { walletStateOf } from './wallets.ts';

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
    inWallet.select(['serial', 'value', 'status']).orderBy('value', 'desc').orderBy(sql`serial COLLATE "C"`).offset(page.offset).limit(page.limit).execute(),
    inWallet.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { coins: rows.map((row) => ({ serial: row.serial, value: row.value, currency: 'CON' as const, status: row.status })), total: count.total };
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
 * from, back to the event that minted the first of them, oldest first.
 */
export async function coinTrail(db: Kysely<Database>, serial: string): Promise<CoinTrailStep[]> {
  const { rows } = await sql<{
    serial: string; action: string; value: number; from_account: string | null; to_account: string | null;
    parent_serial: string | null; tx_id: string; event_position: number; entry_date: Date; event_type: string; event_time: Date;
  }>`
    WITH RECURSIVE lineage(serial) AS (
      SELECT ${serial}::text
      UNION
      SELECT coin.parent_serial FROM coins coin JOIN lineage ON coin.serial = lineage.serial WHERE coin.parent_serial IS NOT NULL
    )
    SELECT audit.serial, audit.action, audit.value, audit.from_account, audit.to_account, audit.parent_serial,
           audit.tx_id, audit.event_position, audit.entry_date, event.type AS event_type, event.created_at AS event_time
    FROM coin_audit audit JOIN lineage ON audit.serial = lineage.serial JOIN events event ON event.position = audit.event_position
    ORDER BY audit.event_position, split_part(audit.audit_id, '.', 2)::int
  `.execute(db);
  return rows.map((row) => ({
    serial: row.serial, action: row.action, value: row.value, fromAccount: row.from_account, toAccount: row.to_account,
    parentSerial: row.parent_serial, txId: row.tx_id, eventPosition: row.event_position, entryDate: row.entry_date,
    eventType: row.event_type, eventTime: row.event_time,
    fromSerial: fromSerialText({ serial: row.serial, fromAccount: row.from_account, value: row.value }),
  }));
}

/** The coin audit of one transaction (the spec's list-audit by reference number). */
export async function transactionAudit(db: Kysely<Database>, txId: string) {
  const rows = await db.selectFrom('coin_audit').selectAll().where('tx_id', '=', txId).orderBy('event_position').orderBy(sql`split_part(audit_id, '.', 2)::int`).execute();
  return rows.map((row) => ({ ...row, from_serial: fromSerialText({ serial: row.serial, fromAccount: row.from_account, value: row.value }) }));
}
