import { sql, type Kysely } from 'kysely';

/**
 * How an operator resolved a flagged bitcoin deposit: credited the satoshis
 * it received (in a ledger transaction of its own, `credit_tx_id`), or
 * recorded that they were sent back to `refund_address`. The deposit stays
 * `flagged` (the watcher's word for "not ours to decide"); a resolution
 * takes it off the operators' work list. The decision itself is an event
 * (`BitcoinDepositResolved` on the stream `bitcoin-deposit-<tx_id>`); these
 * columns are its read model.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE bitcoin_deposits
      ADD COLUMN resolution text CHECK (resolution IN ('credited', 'refunded')),
      ADD COLUMN resolved_sats bigint CHECK (resolved_sats > 0),
      ADD COLUMN resolved_by text,
      ADD COLUMN resolved_at timestamptz,
      ADD COLUMN credit_tx_id text,
      ADD COLUMN refund_address text,
      ADD CONSTRAINT bitcoin_deposits_resolved CHECK (
        resolution IS NULL OR (
          watch_state = 'flagged' AND resolved_sats IS NOT NULL AND resolved_by IS NOT NULL AND resolved_at IS NOT NULL
          AND (resolution = 'credited') = (credit_tx_id IS NOT NULL)
          AND (resolution = 'refunded') = (refund_address IS NOT NULL)
        )
      );
    CREATE INDEX bitcoin_deposits_unresolved ON bitcoin_deposits (flagged_at)
      WHERE watch_state = 'flagged' AND resolution IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX bitcoin_deposits_unresolved;
    ALTER TABLE bitcoin_deposits
      DROP CONSTRAINT bitcoin_deposits_resolved,
      DROP COLUMN resolution, DROP COLUMN resolved_sats, DROP COLUMN resolved_by, DROP COLUMN resolved_at,
      DROP COLUMN credit_tx_id, DROP COLUMN refund_address;
  `.execute(db);
}
