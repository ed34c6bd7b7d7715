import type { Database } from '@peeks/db';
import type { LedgerJob, LedgerJobs } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { jobId } from './queue.ts';
import { WEBHOOK_ATTEMPT_QUEUE } from './queues.ts';

export interface AttemptData {
  deliveryId: string;
  /** The attempt's number in the delivery (1, 2, ...); with the delivery, it names the job. */
  attempt: number;
  /** Where the attempt is in the retry schedule (0: the first of a run, as after a replay). */
  step: number;
}

/** The job of one attempt. Its id is the delivery and the attempt's number, so an attempt is enqueued once however often its cause runs. */
export function attemptJob(deliveryId: string, attempt: number, step: number, startAfter?: Date): LedgerJob {
  const data: AttemptData = { deliveryId, attempt, step };
  return {
    queue: WEBHOOK_ATTEMPT_QUEUE.name,
    id: jobId('webhook-attempt', deliveryId, attempt),
    data: { ...data },
    ...(startAfter ? { startAfter } : {}),
  };
}

/**
 * Sends a delivery again, with the same webhook-id, as a new run of the
 * schedule. Refused while the delivery still has attempts to come (they
 * would run side by side) and while its webhook is disabled.
 */
export async function replayDelivery(
  trx: Kysely<Database>,
  jobs: LedgerJobs,
  deliveryId: string,
  now: Date,
): Promise<'replaying' | 'still pending' | 'webhook disabled' | 'not found'> {
  const delivery = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.webhook_id', 'd.webhook_id')
    .select(['d.state', 'd.attempts_scheduled', 'w.state as webhookState'])
    .where('d.delivery_id', '=', deliveryId)
    .forUpdate('d')
    .executeTakeFirst();
  if (!delivery) return 'not found';
  if (delivery.state === 'pending') return 'still pending';
  if (delivery.webhookState === 'disabled') return 'webhook disabled';
  const attempt = delivery.attempts_scheduled + 1;
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', attempts_scheduled: attempt, next_attempt_at: now })
    .where('delivery_id', '=', deliveryId)
    .execute();
  await jobs.enqueue(trx, [attemptJob(deliveryId, attempt, 0)]);
  return 'replaying';
}
