import { sql, type Kysely } from 'kysely';

/**
 * The sandbox payout provider's own table: the external party that pays
 * withdrawals out to cards and bank accounts, run by the worker for
 * development and tests. Only its HTTP routes read it. A payout is unique by
 * the caller's idempotency key, so a payout asked for again (a job that died
 * after the call) is answered from the first one and pays nothing twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sandbox_payouts (
      payout_id text PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      destination_kind text NOT NULL CHECK (destination_kind IN ('card', 'bank')),
      destination text NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      status text NOT NULL CHECK (status IN ('paid', 'failed')),
      failure_reason text,
      created_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_payouts`.execute(db);
}
