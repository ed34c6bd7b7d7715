import { sql, type Kysely } from 'kysely';

/**
 * Coins bought by card mature before they can be withdrawn as cash: a coin
 * serial carries when (null: at once, as every coin minted before), and the
 * coins split from it keep it. The balance read sums a holder's coins not
 * yet matured, soonest first, from the index below.
 *
 * `ledger_state` gains the time each spender's coins are read for a
 * cash-out against, so its arguments change: `CREATE OR REPLACE` cannot do
 * that, so the old one goes here and the live file creates the new one
 * (docs/architecture/live-sql.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE coins ADD COLUMN matures_at timestamptz`.execute(db);
  await sql`
    CREATE INDEX coins_maturing ON coins (holder, matures_at) WHERE status = 'held' AND matures_at IS NOT NULL
  `.execute(db);
  await sql`DROP FUNCTION IF EXISTS ledger_state(text[], boolean, text[], numeric[])`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX coins_maturing`.execute(db);
  await sql`ALTER TABLE coins DROP COLUMN matures_at`.execute(db);
}
