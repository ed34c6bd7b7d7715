import { sql, type Kysely } from 'kysely';

/**
 * Four eyes for large balance corrections (issue 21). A correction above
 * CORRECTION_APPROVAL_MINOR is not posted: it waits here until a second,
 * different finance operator approves it (then it is posted as the ledger
 * transaction `tx_id`) or rejects it. The request and the decision are
 * events (`CorrectionRequested`, `CorrectionApproved`, `CorrectionRejected`
 * on the stream `correction-<correction_id>`); this table is their read
 * model, and its row lock is what lets two approvers racing post once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE correction_requests (
      correction_id text PRIMARY KEY,
      owner_id text NOT NULL,
      currency text NOT NULL,
      amount bigint NOT NULL CHECK (amount <> 0),
      reason text NOT NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected')),
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      decided_by text,
      decided_at timestamptz,
      decision_reason text,
      tx_id text UNIQUE,
      CONSTRAINT correction_requests_decided CHECK (
        (state = 'pending') = (decided_by IS NULL)
        AND (state = 'pending') = (decided_at IS NULL)
        AND (state = 'approved') = (tx_id IS NOT NULL)
        AND (decided_by IS NULL OR decided_by <> requested_by)
      )
    );
    CREATE INDEX correction_requests_pending ON correction_requests (requested_at) WHERE state = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE correction_requests;`.execute(db);
}
