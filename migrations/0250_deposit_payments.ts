import { sql, type Kysely } from 'kysely';

/**
 * A deposit's transaction keeps the cash it is paid in (`payment`, the
 * `{amount, currency}` of its `DepositEntered`, or of a credited bitcoin
 * payment), so clearing it can convert that cash to coins through the
 * exchange accounts. Null for every other transaction. Filled here from
 * the events for the deposits already stored, as a rebuild from the log
 * would fill it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_transactions ADD COLUMN payment jsonb`.execute(db);
  await sql`
    UPDATE ledger_transactions AS t SET payment = e.data->'payment'
    FROM events e
    WHERE e.stream_id = 'ledger-' || t.tx_id AND e.stream_version = 1
      AND e.type IN ('DepositEntered', 'BitcoinPaymentCredited') AND e.data ? 'payment'
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_transactions DROP COLUMN payment`.execute(db);
}
