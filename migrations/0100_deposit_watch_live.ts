import { sql, type Kysely } from 'kysely';

/**
 * What the pending-deposits view shows live (issue 23): a bitcoin payment
 * seen, each new confirmation, a flag. These change the watcher's row only
 * (the ledger's transaction stays pending), so the ledger_activity trigger of
 * migration 0010 says nothing of them.
 *
 * - `confirmations`: the fewest confirmations among the payments to the
 *   address (0 while one is in the mempool), null while nothing is seen.
 * - A change of the watcher's state, amounts or confirmations announces the
 *   deposit's transaction on `ledger_activity`, in the format of 0010
 *   ("tx_id payer payee"), with the parties of its ledger transaction: the
 *   API's live sockets of that owner read the deposit afresh. Part of the
 *   writing transaction, so delivered only once it commits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE bitcoin_deposits
      ADD COLUMN confirmations integer CHECK (confirmations >= 0);

    CREATE FUNCTION notify_bitcoin_deposit_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('ledger_activity', concat_ws(' ', t.tx_id, coalesce(t.payer_owner_id, ''), coalesce(t.payee_owner_id, '')))
      FROM ledger_transactions t WHERE t.tx_id = NEW.tx_id;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER bitcoin_deposit_changes AFTER UPDATE ON bitcoin_deposits
    FOR EACH ROW WHEN (
      OLD.watch_state IS DISTINCT FROM NEW.watch_state OR OLD.received_sats IS DISTINCT FROM NEW.received_sats
      OR OLD.confirmed_sats IS DISTINCT FROM NEW.confirmed_sats OR OLD.confirmations IS DISTINCT FROM NEW.confirmations
    )
    EXECUTE FUNCTION notify_bitcoin_deposit_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER bitcoin_deposit_changes ON bitcoin_deposits;
    DROP FUNCTION notify_bitcoin_deposit_change();
    ALTER TABLE bitcoin_deposits DROP COLUMN confirmations;
  `.execute(db);
}
