import type { WebhookDelivery, WebhookEvent } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { attemptJob } from '@peeks/jobs';
import type { LedgerJobs } from '@peeks/ledger-store';
import { randomBytes, randomUUID } from 'node:crypto';
import { ownedBy, type WebhookOwner } from './queries.ts';

const deliveryColumns = [
  'd.delivery_id',
  'd.webhook_id',
  'd.event_type',
  'd.tx_id',
  'd.state',
  'd.created_at',
  'd.next_attempt_at',
  'd.delivered_at',
  'd.body',
] as const;

type DeliveryRow = {
  delivery_id: string;
  webhook_id: number;
  event_type: string;
  tx_id: string;
  state: WebhookDelivery['state'];
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  body: string;
};

/** Deliveries with their attempts, in the API's shape; attempts read in one query for the whole page. */
async function withAttempts(db: Kysely<Database>, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((row) => row.delivery_id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where('delivery_id', 'in', ids)
          .orderBy('delivery_id')
          .orderBy('attempt')
          .execute();
  return rows.map((row) => ({
    delivery_id: row.delivery_id,
    webhook_id: row.webhook_id,
    // Stored events are always from the list: the fan-out wrote them from webhookEventOf.
    event: row.event_type as WebhookEvent,
    transaction_id: row.tx_id,
    state: row.state,
    created_at: row.created_at.toISOString(),
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    payload: JSON.parse(row.body) as unknown,
    attempts: attempts
      .filter((each) => each.delivery_id === row.delivery_id)
      .map((each) => ({
        attempt: each.attempt,
        attempted_at: each.attempted_at.toISOString(),
        status_code: each.status_code,
        error: each.error,
        latency_ms: each.latency_ms,
        response_body: each.response_body,
      })),
  }));
}

/** A webhook's deliveries, newest first; the caller has checked the webhook is the merchant's. */
export async function listDeliveries(
  db: Kysely<Database>,
  webhookId: number,
  page: { offset: number; limit: number },
): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .select(deliveryColumns)
    .where('d.webhook_id', '=', webhookId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.delivery_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const { total } = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return { deliveries: await withAttempts(db, rows), total: Number(total) };
}

/** The owner's delivery, or undefined when it has none by that id (another owner's included). */
export async function findDelivery(
  db: Kysely<Database>,
  owner: WebhookOwner,
  deliveryId: string,
): Promise<WebhookDelivery | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks', 'webhooks.webhook_id', 'd.webhook_id')
    .select(deliveryColumns)
    .where(ownedBy(owner))
    .where('d.delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row && (await withAttempts(db, [row]))[0];
}

/**
 * A made-up message of `event` to one webhook, sent like any other (first
 * attempt now, the same retries), so the receiver can be tried before real
 * money moves. Its data says `test: true` and names no real transaction.
 */
export async function sendTestEvent(
  trx: Kysely<Database>,
  jobs: Pick<LedgerJobs, 'enqueue'>,
  webhookId: number,
  event: WebhookEvent,
  now: Date,
): Promise<string> {
  const deliveryId = `msg_${randomBytes(16).toString('hex')}`;
  const txId = `test_${randomUUID()}`;
  await trx
    .insertInto('webhook_deliveries')
    .values({
      delivery_id: deliveryId,
      webhook_id: webhookId,
      event_type: event,
      tx_id: txId,
      event_version: 1,
      body: JSON.stringify({
        type: event,
        timestamp: now.toISOString(),
        data: { test: true, transaction_id: txId, amount: 0, currency: 'USD' },
      }),
      state: 'pending',
      attempts_scheduled: 1,
      created_at: now,
      next_attempt_at: now,
      delivered_at: null,
    })
    .execute();
  await jobs.enqueue(trx, [attemptJob(deliveryId, 1, 0)]);
  return deliveryId;
}
