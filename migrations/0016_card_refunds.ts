import { sql, type Kysely } from 'kysely';

/**
 * The sandbox processor can refund a charge: when the ledger refuses a
 * payment after the card was charged (a wallet closed in between), the app
 * gives the money back instead of keeping it unrecorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_charges ADD COLUMN refunded_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_charges DROP COLUMN refunded_at`.execute(db);
}
