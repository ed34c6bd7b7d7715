import type { BitcoinDepositsTable, Database } from '@peeks/db';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { generateTestnetAccountKey, type BitcoinNetwork } from './hd-wallet.ts';

export type BitcoinDeposit = Selectable<BitcoinDepositsTable>;

/**
 * The key deposit addresses come from: the configured one, or else the
 * network's generated key, made on the first start and kept for every later
 * one. Several processes starting at once agree on one key (the unique
 * indexes decide, the losers read the winner's).
 */
export async function depositKey(
  db: Kysely<Database>,
  network: BitcoinNetwork,
  configured: string | undefined,
  now: Date,
): Promise<{ keyId: number; xpub: string }> {
  const existing = db.selectFrom('bitcoin_keys').select(['key_id', 'xpub']).where('network', '=', network);
  const find = () =>
    (configured === undefined
      ? existing.where('generated', '=', true)
      : existing.where('xpub', '=', configured)
    ).executeTakeFirst();
  let key = await find();
  if (!key) {
    await db
      .insertInto('bitcoin_keys')
      .values({
        network,
        xpub: configured ?? generateTestnetAccountKey(),
        generated: configured === undefined,
        created_at: now,
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    key = await find();
  }
  if (!key) throw new Error(`no bitcoin key for ${network}`);
  return { keyId: key.key_id, xpub: key.xpub };
}

/** The next derivation index: a sequence hands each out once, whatever commits or rolls back. */
export async function nextAddressIndex(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ index: number }>`SELECT nextval('bitcoin_address_index')::integer AS index`.execute(db);
  const index = rows[0]?.index;
  if (index === undefined) throw new Error('bitcoin_address_index gave no value');
  return index;
}

export function findBitcoinDeposit(db: Kysely<Database>, txId: string): Promise<BitcoinDeposit | undefined> {
  return db.selectFrom('bitcoin_deposits').selectAll().where('tx_id', '=', txId).executeTakeFirst();
}

/** Stores a new deposit's address; undefined when a request with the same transaction id stored one first. */
export function storeBitcoinDeposit(
  db: Kysely<Database>,
  deposit: Insertable<BitcoinDepositsTable>,
): Promise<BitcoinDeposit | undefined> {
  return db
    .insertInto('bitcoin_deposits')
    .values(deposit)
    .onConflict((conflict) => conflict.column('tx_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}
