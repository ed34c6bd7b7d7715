import { sql, type Kysely } from 'kysely';

/**
 * The ledger's functions plan their statements once per connection instead
 * of once per call (issue 3's benchmark). Their statements name rows with
 * `= ANY(array variable)`, which Postgres's plan cache judged cheaper to
 * plan afresh for every call (a custom plan): with batches of two or three
 * transfers under load, that planning was about a fifth of the Postgres CPU
 * of a transfer (pg_stat_statements' plan time, about 0.25 ms). The generic
 * plans probe the same indexes (wallets and coins by primary key, coins by
 * holder), checked with auto_explain.
 */
const functions = [
  'ledger_state(text[], boolean, text[], numeric[])',
  'ledger_commit(text[], bigint[], jsonb)',
  'project_ledger_events(bigint[], jsonb)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const signature of functions) {
    await sql`ALTER FUNCTION ${sql.raw(signature)} SET plan_cache_mode = force_generic_plan`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of functions) {
    await sql`ALTER FUNCTION ${sql.raw(signature)} RESET plan_cache_mode`.execute(db);
  }
}
