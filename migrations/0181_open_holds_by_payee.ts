import { sql, type Kysely } from 'kysely';

/**
 * The dashboard says when a person's next hold releases, on every balance
 * read and live balance message: the open holds of one payee, soonest first,
 * without walking everything they ever received.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX ledger_transactions_open_holds_by_payee ON ledger_transactions (payee_owner_id, currency, hold_release_at)
      WHERE hold_released_at IS NULL AND hold_release_at IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ledger_transactions_open_holds_by_payee`.execute(db);
}
