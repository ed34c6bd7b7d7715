import { sql, type Kysely } from 'kysely';

/**
 * Per-account sign-in throttling (issue 21): wrong passwords counted per
 * account and per account and client address, each with the time before
 * which that key may not try again. `known` rows remember the addresses an
 * account has signed in from, which the per-account lock lets through, so
 * an attacker elsewhere cannot lock the owner out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sign_in_throttles (
      key text PRIMARY KEY,
      failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
      blocked_until timestamptz,
      updated_at timestamptz NOT NULL
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sign_in_throttles`.execute(db);
}
