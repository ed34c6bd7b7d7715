import { sql, type Kysely } from 'kysely';

/**
 * Four eyes for banning a finance operator (issue 33): one operator alone
 * could ban another and end their sessions at once. Such a ban now waits
 * here until a second, different operator approves it (then the user is
 * banned and their sessions end, in the approval's transaction) or rejects
 * it. The request and the decision are events (`BanRequested`,
 * `BanApproved`, `BanRejected` on the stream `ban-<ban_id>`); this table is
 * their read model, and its row lock is what lets two approvers racing ban
 * once. One pending request per user at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ban_requests (
      ban_id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users (user_id),
      reason text NOT NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected')),
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      decided_by text,
      decided_at timestamptz,
      decision_reason text,
      CONSTRAINT ban_requests_decided CHECK (
        (state = 'pending') = (decided_by IS NULL)
        AND (state = 'pending') = (decided_at IS NULL)
        AND (decided_by IS NULL OR decided_by <> requested_by)
      )
    );
    CREATE UNIQUE INDEX ban_requests_one_pending ON ban_requests (user_id) WHERE state = 'pending';
    CREATE INDEX ban_requests_pending ON ban_requests (requested_at) WHERE state = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE ban_requests;`.execute(db);
}
