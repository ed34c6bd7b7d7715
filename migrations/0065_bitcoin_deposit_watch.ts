import { sql, type Kysely } from 'kysely';

/**
 * What the bitcoin watcher knows of each deposit's address, beside the
 * deposit itself: its state (pending until a payment is seen, processing
 * while it confirms, then cleared or expired, or flagged for an operator),
 * the satoshis seen and confirmed there, the payments' transaction ids, and
 * for a flagged deposit why. The ledger keeps the money side (cleared or
 * expired); this is the watcher's side, which the ledger has no words for
 * (a payment in the mempool, an underpayment).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE bitcoin_deposits
      ADD COLUMN watch_state text NOT NULL DEFAULT 'pending' CHECK (watch_state IN ('pending', 'processing', 'cleared', 'expired', 'flagged')),
      ADD COLUMN received_sats bigint NOT NULL DEFAULT 0 CHECK (received_sats >= 0),
      ADD COLUMN confirmed_sats bigint NOT NULL DEFAULT 0 CHECK (confirmed_sats >= 0),
      ADD COLUMN payment_txids text[] NOT NULL DEFAULT '{}',
      ADD COLUMN seen_at timestamptz,
      ADD COLUMN flag text CHECK (flag IN ('underpaid', 'overpaid', 'late', 'paid-again')),
      ADD COLUMN flag_reason text,
      ADD COLUMN flagged_at timestamptz,
      ADD CONSTRAINT bitcoin_deposits_flagged CHECK ((watch_state = 'flagged') = (flag IS NOT NULL AND flag_reason IS NOT NULL AND flagged_at IS NOT NULL)),
      ADD CONSTRAINT bitcoin_deposits_seen CHECK ((received_sats = 0) OR (seen_at IS NOT NULL));
    CREATE INDEX bitcoin_deposits_open ON bitcoin_deposits (created_at) WHERE watch_state IN ('pending', 'processing');
    CREATE INDEX bitcoin_deposits_flagged_at ON bitcoin_deposits (flagged_at) WHERE watch_state = 'flagged';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX bitcoin_deposits_open, bitcoin_deposits_flagged_at;
    ALTER TABLE bitcoin_deposits
      DROP CONSTRAINT bitcoin_deposits_flagged, DROP CONSTRAINT bitcoin_deposits_seen,
      DROP COLUMN watch_state, DROP COLUMN received_sats, DROP COLUMN confirmed_sats, DROP COLUMN payment_txids,
      DROP COLUMN seen_at, DROP COLUMN flag, DROP COLUMN flag_reason, DROP COLUMN flagged_at;
  `.execute(db);
}
