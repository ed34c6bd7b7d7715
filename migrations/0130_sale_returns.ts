import { sql, type Kysely } from 'kysely';

/**
 * Returns (issue 27). A return is a ledger transaction of its own whose
 * `parent_tx_id` is the sale; the sale's row keeps the sum of its returns
 * (`returned_amount`, refunded when above zero) and the last `return_date`.
 * `ledger_commit` adds to the sum under the row's lock, and the CHECK is
 * the last line of defence: no sale gives back more than it took.
 *
 * Merchant permissions gain VIEW_SALES (the merchant screens) and
 * RETURN_SALES (a return); members who hold every permission so far, the
 * owners, get both.
 *
 * The sandbox card processor refunds part of a charge, once per refund key,
 * never more than the charge: `sandbox_refunds`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ledger_transactions
      ADD COLUMN parent_tx_id text,
      ADD COLUMN returned_amount bigint NOT NULL DEFAULT 0,
      ADD COLUMN return_date timestamptz,
      ADD CONSTRAINT ledger_transactions_returns_within_sale CHECK (returned_amount >= 0 AND returned_amount <= amount);
    CREATE INDEX ledger_transactions_parent ON ledger_transactions (parent_tx_id) WHERE parent_tx_id IS NOT NULL;
    CREATE INDEX ledger_transactions_merchant ON ledger_transactions (merchant_id, entry_date DESC) WHERE merchant_id IS NOT NULL;

    UPDATE merchant_users SET perms = perms || ARRAY['VIEW_SALES', 'RETURN_SALES']
    WHERE perms @> ARRAY['UPDATE_MERCHANT', 'MANAGE_TERMINALS', 'MANAGE_WEBHOOKS', 'MANAGE_AGREEMENTS', 'UPLOAD_DOCUMENTS', 'ACCEPT_PAYMENTS']
      AND NOT perms @> ARRAY['VIEW_SALES'];

    CREATE TABLE sandbox_refunds (
      refund_key text PRIMARY KEY,
      refund_id text NOT NULL UNIQUE,
      charge_id text NOT NULL REFERENCES sandbox_charges,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX sandbox_refunds_charge ON sandbox_refunds (charge_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE sandbox_refunds;
    UPDATE merchant_users SET perms = array_remove(array_remove(perms, 'VIEW_SALES'), 'RETURN_SALES');
    DROP INDEX ledger_transactions_merchant;
    DROP INDEX ledger_transactions_parent;
    ALTER TABLE ledger_transactions
      DROP CONSTRAINT ledger_transactions_returns_within_sale,
      DROP COLUMN return_date,
      DROP COLUMN returned_amount,
      DROP COLUMN parent_tx_id;
  `.execute(db);
}
