import { sql, type Kysely } from 'kysely';

/**
 * A return whose card refund the processor refused (state `failed`) gave
 * its money back to the merchant, yet stayed in its sale's
 * `returned_amount`, so the merchant could never return that part of the
 * sale again. The ledger now takes a failed return's amount off its sale
 * (saleReturnOf); this takes the failed returns made before off as well,
 * which is what a rebuild from the log now computes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE ledger_transactions AS s SET returned_amount = s.returned_amount - f.total
    FROM (
      SELECT parent_tx_id, sum(amount) AS total FROM ledger_transactions
      WHERE type = 'return' AND state = 'failed' AND parent_tx_id IS NOT NULL GROUP BY parent_tx_id
    ) AS f
    WHERE s.tx_id = f.parent_tx_id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE ledger_transactions AS s SET returned_amount = s.returned_amount + f.total
    FROM (
      SELECT parent_tx_id, sum(amount) AS total FROM ledger_transactions
      WHERE type = 'return' AND state = 'failed' AND parent_tx_id IS NOT NULL GROUP BY parent_tx_id
    ) AS f
    WHERE s.tx_id = f.parent_tx_id
  `.execute(db);
}
