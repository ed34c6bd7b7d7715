import { sql, type Kysely } from 'kysely';

/**
 * Checkout sessions (spec §2, "Checkout page (id, token)"): a merchant's cart
 * waiting to be paid.
 *
 * - The link carries the id and a random token; only the token's SHA-256 is
 *   kept, so a leaked table or backup lets nobody see or pay a session.
 * - Paid or not is the ledger's fact, not this table's: `tx_id` is fixed at
 *   creation, and the session is paid exactly when that ledger transaction
 *   exists. One id can be written once by the ledger, so a session is paid
 *   at most once, and there is no second write that could fail in between.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE checkout_sessions (
      checkout_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      merchant_id bigint NOT NULL REFERENCES merchants,
      created_by bigint NOT NULL REFERENCES users,
      token_hash bytea NOT NULL CHECK (length(token_hash) = 32),
      tx_id text NOT NULL UNIQUE,
      cart jsonb NOT NULL CHECK (jsonb_typeof(cart) = 'array'),
      total bigint NOT NULL CHECK (total > 0),
      currency text NOT NULL CHECK (currency IN ('USD', 'CAD', 'CON', 'IMP')),
      success_url text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
    );
    CREATE INDEX checkout_sessions_merchant ON checkout_sessions (merchant_id, created_at DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE checkout_sessions`.execute(db);
}
