import { sql, type Kysely } from 'kysely';

/**
 * The /transaction screen's Ledger tab filters by date range within a
 * wallet. ledger_entries is ordered by event position per account; this
 * index answers "an account's entries between two days" without reading
 * the account's whole history. (Transactions already have owner + date
 * indexes, migration 0003.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX ledger_entries_account_date ON ledger_entries (account_id, entry_date DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ledger_entries_account_date`.execute(db);
}
