import { sql, type Kysely } from 'kysely';

/**
 * Deposits that clear later: e-mail transfers (Interac-style, Zelle-style)
 * and bitcoin. The ledger keeps the pending deposit (EnterDeposit) and its
 * state; these tables keep what the ledger does not: how the money is to
 * reach us, and what a finance operator matches an incoming payment against.
 *
 * - `deposit_instructions`, one row per e-mail-transfer deposit, keyed by its
 *   ledger transaction: the reference memo (unique across all deposits, short
 *   enough to type into a bank's memo field), the platform recipient, the
 *   security question and answer (Interac: the operator needs the answer to
 *   accept the transfer), the expected amount, and the sender as registered.
 * - `bitcoin_keys`: the extended public keys deposit addresses are derived
 *   from (BIP84, account level). A key generated because none was configured
 *   is one per network; only its public part is ever stored.
 * - `bitcoin_address_index`: a sequence, so two deposits never get the same
 *   derivation index, even at the same moment or after a rollback.
 * - `bitcoin_deposits`, one row per bitcoin deposit: the address, its index
 *   and key, the quote it was made from, and when it expires.
 * - `platform_secrets`: secrets generated on first start and shared by every
 *   API process (the bitcoin quote's HMAC key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE deposit_instructions (
      tx_id text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users,
      method text NOT NULL CHECK (method IN ('interac', 'zelle')),
      reference text NOT NULL UNIQUE CHECK (reference ~ '^PKS-[0-9A-Z]{4}-[0-9A-Z]{4}$'),
      recipient_name text NOT NULL,
      recipient_email text NOT NULL,
      security_question text,
      security_answer text,
      sender_name text,
      sender_email text NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency IN ('USD', 'CAD')),
      rate_micros integer NOT NULL CHECK (rate_micros > 0),
      coin_estimate bigint NOT NULL CHECK (coin_estimate > 0),
      created_at timestamptz NOT NULL,
      CHECK ((method = 'interac') = (security_answer IS NOT NULL))
    );
    CREATE INDEX deposit_instructions_user ON deposit_instructions (user_id, created_at DESC);
    CREATE INDEX deposit_instructions_sender ON deposit_instructions (lower(sender_email));

    CREATE TABLE bitcoin_keys (
      key_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      network text NOT NULL CHECK (network IN ('mainnet', 'testnet')),
      xpub text NOT NULL UNIQUE,
      generated boolean NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX bitcoin_keys_one_generated ON bitcoin_keys (network) WHERE generated;

    CREATE SEQUENCE bitcoin_address_index AS integer MINVALUE 0 START 0 MAXVALUE 2147483647 NO CYCLE;

    CREATE TABLE bitcoin_deposits (
      tx_id text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users,
      key_id integer NOT NULL REFERENCES bitcoin_keys,
      derivation_index integer NOT NULL CHECK (derivation_index >= 0),
      address text NOT NULL UNIQUE,
      amount_sats bigint NOT NULL CHECK (amount_sats > 0),
      usd_cents bigint NOT NULL CHECK (usd_cents > 0),
      usd_cents_per_btc bigint NOT NULL CHECK (usd_cents_per_btc > 0),
      coins bigint NOT NULL CHECK (coins > 0),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      UNIQUE (key_id, derivation_index)
    );
    CREATE INDEX bitcoin_deposits_user ON bitcoin_deposits (user_id, created_at DESC);
    CREATE INDEX bitcoin_deposits_expiry ON bitcoin_deposits (expires_at);

    CREATE TABLE platform_secrets (
      name text PRIMARY KEY,
      secret bytea NOT NULL CHECK (length(secret) >= 32),
      created_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE platform_secrets, bitcoin_deposits, bitcoin_keys, deposit_instructions;
    DROP SEQUENCE bitcoin_address_index;
  `.execute(db);
}
