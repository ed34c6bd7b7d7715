import { sql, type Kysely } from 'kysely';

/**
 * Runs of `ledger:verify` an operator starts from the console: one row per
 * run, so every API process shows the same last run, and it outlives a
 * restart. A running row is kept alive by `heartbeat_at` while the run
 * reports progress; one whose heartbeat stopped belonged to a process that
 * died, and is marked crashed by whoever looks next. The partial unique
 * index lets one run go at a time across every process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ledger_verifications (
      verification_id bigserial PRIMARY KEY,
      state text NOT NULL CHECK (state IN ('running', 'finished', 'crashed')),
      started_by text NOT NULL,
      started_at timestamptz NOT NULL,
      heartbeat_at timestamptz NOT NULL,
      finished_at timestamptz,
      ok boolean,
      report text,
      progress jsonb,
      CHECK ((state = 'running') = (finished_at IS NULL))
    );
    CREATE UNIQUE INDEX ledger_verifications_one_running ON ledger_verifications ((true)) WHERE state = 'running';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE ledger_verifications`.execute(db);
}
