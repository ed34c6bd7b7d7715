import { sql, type Kysely } from 'kysely';

/**
 * The ledger's read models. `wallets` is projected inline, in the same
 * transaction as the append, and its row lock is what serialises two spends
 * of the same money; its CHECK constraints are the last line of defence for
 * the balance rules the domain enforces first. The other tables are derived
 * from the events too and are rebuilt and compared by `npm run ledger:verify`.
 * `platform_balances` is projected asynchronously (see projection_checkpoints),
 * so the platform's busiest accounts are never a hot row in a payment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE wallets (
      wallet_id text PRIMARY KEY,
      owner_id text NOT NULL,
      currency text NOT NULL CHECK (currency IN ('USD', 'CAD', 'CON', 'IMP')),
      status text NOT NULL CHECK (status IN ('open', 'closed')),
      total bigint NOT NULL DEFAULT 0,
      available bigint NOT NULL DEFAULT 0,
      withdrawable bigint NOT NULL DEFAULT 0,
      reserved bigint NOT NULL DEFAULT 0,
      opened_at timestamptz NOT NULL,
      UNIQUE (owner_id, currency),
      CONSTRAINT wallet_balance_rules CHECK (
        available >= 0 AND reserved >= 0 AND withdrawable >= 0
        AND withdrawable <= available AND total = available + reserved
      )
    );

    CREATE TABLE ledger_transactions (
      tx_id text PRIMARY KEY,
      type text NOT NULL,
      state text NOT NULL,
      tx_class text NOT NULL,
      entry_date timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      amount bigint NOT NULL,
      fee bigint NOT NULL,
      currency text NOT NULL,
      payer_owner_id text,
      payer_wallet_id text,
      payee_owner_id text,
      payee_wallet_id text,
      merchant_id text,
      merchant_batch_id text,
      payment_method_id text,
      payment_method_type text,
      reference text,
      reason text,
      hold_amount bigint,
      hold_release_at timestamptz,
      hold_released_at timestamptz,
      expires_at timestamptz,
      reserved_coins jsonb NOT NULL,
      version integer NOT NULL
    );
    CREATE INDEX ledger_transactions_payer ON ledger_transactions (payer_owner_id, entry_date DESC);
    CREATE INDEX ledger_transactions_payee ON ledger_transactions (payee_owner_id, entry_date DESC);
    CREATE INDEX ledger_transactions_holds_due ON ledger_transactions (hold_release_at)
      WHERE hold_amount IS NOT NULL AND hold_released_at IS NULL;

    CREATE TABLE ledger_entries (
      ledger_id text PRIMARY KEY,
      tx_id text NOT NULL,
      account_id text NOT NULL,
      entry_date timestamptz NOT NULL,
      type text NOT NULL,
      amount bigint NOT NULL CHECK (amount >= 0),
      currency text NOT NULL,
      debit_credit char(1) NOT NULL CHECK (debit_credit IN ('D', 'C')),
      event_position bigint NOT NULL
    );
    CREATE INDEX ledger_entries_account ON ledger_entries (account_id, event_position DESC);
    CREATE INDEX ledger_entries_tx ON ledger_entries (tx_id);

    CREATE TABLE coins (
      serial text PRIMARY KEY,
      holder text NOT NULL,
      value bigint NOT NULL CHECK (value > 0),
      status text NOT NULL CHECK (status IN ('held', 'reserved', 'split', 'burned')),
      parent_serial text,
      minted_tx_id text NOT NULL
    );
    -- Largest first, then serial by code point: the order coins are spent in (byPreference).
    CREATE INDEX coins_spendable ON coins (holder, value DESC, serial COLLATE "C") WHERE status = 'held';
    CREATE INDEX coins_in_wallet ON coins (holder, serial) WHERE status IN ('held', 'reserved');

    CREATE TABLE coin_audit (
      audit_id text PRIMARY KEY,
      tx_id text NOT NULL,
      event_position bigint NOT NULL,
      serial text NOT NULL,
      action text NOT NULL,
      value bigint NOT NULL,
      from_account text,
      to_account text,
      parent_serial text,
      entry_date timestamptz NOT NULL
    );
    CREATE INDEX coin_audit_serial ON coin_audit (serial, event_position);
    CREATE INDEX coin_audit_tx ON coin_audit (tx_id);

    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      transaction_id xid8 NOT NULL,
      position bigint NOT NULL,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE platform_balances (
      account_id text PRIMARY KEY,
      currency text NOT NULL,
      balance bigint NOT NULL,
      entries bigint NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE platform_balances, projection_checkpoints, coin_audit, coins, ledger_entries, ledger_transactions, wallets
  `.execute(db);
}
