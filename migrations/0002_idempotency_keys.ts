import { sql, type Kysely } from 'kysely';

/**
 * One row per (scope, Idempotency-Key). The row is claimed in the same
 * transaction as the work it guards, so a rolled-back request leaves no key
 * behind and a concurrent duplicate waits for the first to finish. The
 * response is `json`, not `jsonb`, so a replay is byte-identical to the first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      fingerprint char(64) NOT NULL,
      status_code integer,
      response json,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      PRIMARY KEY (scope, key)
    );

    CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
