import { sql, type Kysely } from 'kysely';

/**
 * Card returns the retry gave up on (issue 33): still pending a day after
 * they were asked for, with the processor never answering, so nobody knows
 * whether the card got its refund. The retry stops asking and finance
 * settles each with the processor; the return stays pending meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE card_return_flags (
      tx_id text PRIMARY KEY REFERENCES ledger_transactions (tx_id),
      flagged_at timestamptz NOT NULL,
      reason text NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE card_return_flags`.execute(db);
}
