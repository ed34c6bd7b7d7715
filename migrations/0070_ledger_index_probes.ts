import { sql, type Kysely } from 'kysely';

/**
 * The ledger's functions never scan a whole table (issue 5's benchmark).
 * Their generic plans (migration 0045) are made once per connection, from
 * the statistics of that moment. On a young database, a connection opened
 * while `coins` or `wallets` held a few hundred rows planned
 * `serial = ANY(array)` as a sequential scan under a hash join, and kept
 * that plan while the table grew by thousands of rows a second until the
 * next autoanalyze: under bench:api, a third of Postgres's CPU went to
 * comparing every coin's serial with every serial of the batch. Every
 * statement in these functions names its rows by key, so an index probe is
 * right at any table size; with sequential scans off, the planner picks one
 * whatever the statistics say.
 */
const functions = [
  'ledger_state(text[], boolean, text[], numeric[])',
  'ledger_commit(text[], bigint[], jsonb)',
  'project_ledger_events(bigint[], jsonb)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const signature of functions) {
    await sql`ALTER FUNCTION ${sql.raw(signature)} SET enable_seqscan = off`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of functions) {
    await sql`ALTER FUNCTION ${sql.raw(signature)} RESET enable_seqscan`.execute(db);
  }
}
