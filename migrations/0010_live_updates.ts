import { sql, type Kysely } from 'kysely';

/**
 * Live updates (GET /api/live): every change to a transaction's read-model
 * row announces itself on the `ledger_activity` channel as
 * "tx_id payer_owner_id payee_owner_id" (an absent party is empty). The
 * NOTIFY is part of the transaction that writes the row, so Postgres
 * delivers it only if that transaction commits, and only after it has:
 * nothing committed is missed, nothing rolled back is announced, and a
 * listener that reads on receipt sees the commit.
 *
 * Why a row trigger on ledger_transactions: every money movement writes
 * exactly one row there per event (project_ledger_event's one-row upsert),
 * naming both parties, so one trigger call per event covers balances and
 * activity, and the payload lets each API process skip commits none of its
 * sockets watch without a query. Platform-only transactions (no party)
 * notify nothing. A statement-level trigger would fire as often (one row per
 * statement) and pay for a transition table besides. The verify rebuild
 * copies the table with LIKE, which leaves the trigger behind, so a rebuild
 * announces nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION notify_ledger_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('ledger_activity', concat_ws(' ', NEW.tx_id, coalesce(NEW.payer_owner_id, ''), coalesce(NEW.payee_owner_id, '')));
      RETURN NULL;
    END
    $$;

    CREATE TRIGGER ledger_activity AFTER INSERT OR UPDATE ON ledger_transactions
    FOR EACH ROW WHEN (NEW.payer_owner_id IS NOT NULL OR NEW.payee_owner_id IS NOT NULL)
    EXECUTE FUNCTION notify_ledger_activity();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER ledger_activity ON ledger_transactions;
    DROP FUNCTION notify_ledger_activity();
  `.execute(db);
}
