import { sql, type Kysely } from 'kysely';

/**
 * Stored payment methods, and the sandbox card processor's own tables.
 *
 * - `payment_methods` never holds a card number: a card is its processor
 *   token, brand, mask and expiry. A deleted method keeps its row (state 'D')
 *   because transactions name it. At most one default per user among live
 *   methods, and one live method per fingerprint (the same card token or bank
 *   account twice is the spec's 10503).
 * - `sandbox_cards` and `sandbox_charges` belong to the sandbox processor, an
 *   external party that happens to run in the same process: only its routes
 *   read them, and they are the only place a card number is kept (never the
 *   CVV). A charge is unique by the caller's idempotency key, so a retried
 *   charge is answered from its first outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment_methods (
      payment_method_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('CC', 'CHQ', 'WIRE')),
      state char(1) NOT NULL CHECK (state IN ('E', 'D')),
      validated char(1) NOT NULL CHECK (validated IN ('V', 'N')),
      is_default boolean NOT NULL,
      fingerprint text NOT NULL,
      billing_address jsonb NOT NULL,
      shipping_address jsonb,
      type_specific jsonb NOT NULL,
      entry_date timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (state = 'E' OR NOT is_default)
    );
    CREATE INDEX payment_methods_user ON payment_methods (user_id, payment_method_id);
    CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (user_id) WHERE is_default;
    CREATE UNIQUE INDEX payment_methods_fingerprint ON payment_methods (user_id, fingerprint) WHERE state = 'E';

    CREATE TABLE sandbox_cards (
      token text PRIMARY KEY,
      card_number text NOT NULL,
      brand text NOT NULL,
      mask text NOT NULL,
      expiry_month int NOT NULL,
      expiry_year int NOT NULL,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE sandbox_charges (
      charge_id text PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      token text NOT NULL REFERENCES sandbox_cards,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      status text NOT NULL CHECK (status IN ('approved', 'declined')),
      created_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_charges, sandbox_cards, payment_methods`.execute(db);
}
