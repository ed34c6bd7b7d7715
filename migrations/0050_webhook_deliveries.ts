import { sql, type Kysely } from 'kysely';

/**
 * Webhook delivery (issue 6): what was sent to whom, and every attempt.
 *
 * - `webhook_deliveries`: one message of one ledger event to one webhook.
 *   Its id is the Standard Webhooks `webhook-id` ("msg_" + a hash of the
 *   event and the webhook), the same on every attempt and replay, so the
 *   fan-out of an event inserts each delivery once however often it runs.
 *   The body is kept as the exact text sent, since the signature covers
 *   its bytes. `state`: pending while attempts remain, delivered after a
 *   2xx, failed when the schedule ran out or the webhook was disabled.
 *   `attempts_scheduled` is the number of the latest attempt enqueued: the
 *   attempt jobs' ids are derived from (delivery, number), so a replay
 *   takes the next number and never collides with an earlier job.
 * - `webhook_attempts`: one row per POST, numbered per delivery; the row is
 *   written in the transaction that enqueues the next attempt, and
 *   (delivery, attempt) is unique, so a job run twice records it once.
 * - `webhooks.failing_since`: when the current run of failed attempts
 *   began (cleared by any success); a webhook failing for days is disabled.
 *   `disabled_reason` tells the merchant why the worker disabled it.
 * Deleting a webhook deletes its history (ON DELETE CASCADE): the merchant
 * removed the endpoint, and no attempt of it can be read back any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_deliveries (
      delivery_id text PRIMARY KEY CHECK (delivery_id ~ '^msg_[0-9a-f]{32}$'),
      webhook_id bigint NOT NULL REFERENCES webhooks ON DELETE CASCADE,
      event_type text NOT NULL,
      tx_id text NOT NULL,
      event_version integer NOT NULL CHECK (event_version > 0),
      body text NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
      attempts_scheduled integer NOT NULL CHECK (attempts_scheduled > 0),
      created_at timestamptz NOT NULL,
      next_attempt_at timestamptz,
      delivered_at timestamptz
    );
    CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC);

    CREATE TABLE webhook_attempts (
      delivery_id text NOT NULL REFERENCES webhook_deliveries ON DELETE CASCADE,
      attempt integer NOT NULL CHECK (attempt > 0),
      attempted_at timestamptz NOT NULL,
      status_code integer,
      error text,
      latency_ms integer NOT NULL CHECK (latency_ms >= 0),
      response_body text,
      PRIMARY KEY (delivery_id, attempt),
      CHECK (status_code IS NOT NULL OR error IS NOT NULL)
    );

    ALTER TABLE webhooks
      ADD COLUMN failing_since timestamptz,
      ADD COLUMN disabled_reason text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhooks DROP COLUMN failing_since, DROP COLUMN disabled_reason;
    DROP TABLE webhook_attempts, webhook_deliveries;
  `.execute(db);
}
