import { readStream, type Database } from '@peeks/db';
import { ownerOf, transactionStream, type TransactionEvent } from '@peeks/ledger';
import type { LedgerJobs } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import { sql, type Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { attemptJob, tellsPersonalWebhooks, toldOwnerOf, WEBHOOK_FAN_OUT_QUEUE, webhookEventOf } from '@peeks/jobs';
import { workEach } from '../job.ts';
import { deliveryIdOf, messageBody } from './messages.ts';

/**
 * Makes one delivery per enabled webhook of the event's merchant that
 * subscribes to it, and enqueues each one's first attempt, in one
 * transaction. The delivery ids come from the event and the webhook, so a
 * second run of the job (after a crash before it reported) inserts no
 * delivery and enqueues no attempt. A merchant's wallet's event goes to
 * the merchant's webhooks; a person's wallet's deposits, withdrawals and
 * returns go to that person's own webhooks (those without a merchant).
 */
export async function fanOut(
  db: Kysely<Database>,
  jobs: LedgerJobs,
  txId: string,
  eventVersion: number,
  now: Date,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const stream = await readStream(trx, transactionStream(txId));
    const stored = stream.find((each) => each.streamVersion === eventVersion);
    if (!stored) throw new Error(`ledger event ${txId}#${eventVersion} does not exist`);
    const event = { type: stored.type, data: stored.data } as unknown as TransactionEvent;
    const type = webhookEventOf(event);
    const first = stream[0] && ({ type: stream[0].type, data: stream[0].data } as unknown as TransactionEvent);
    const owner = ownerOf(toldOwnerOf(event) ?? (first ? toldOwnerOf(first) : null) ?? '');
    if (type === null || !owner) return 0;
    if (owner.kind === 'user' && !tellsPersonalWebhooks(type)) return 0;

    const webhooks = await trx
      .selectFrom('webhooks')
      .select('webhook_id')
      .where((eb) =>
        owner.kind === 'merchant'
          ? eb('merchant_id', '=', owner.id)
          : eb.and([eb('merchant_id', 'is', null), eb('user_id', '=', owner.id)]),
      )
      .where('state', '=', 'enabled')
      .where(sql<boolean>`${type} = ANY(events)`)
      .execute();
    if (webhooks.length === 0) return 0;
    const body = messageBody(type, stored.createdAt, event);
    const made = await trx
      .insertInto('webhook_deliveries')
      .values(
        webhooks.map(({ webhook_id }) => ({
          delivery_id: deliveryIdOf(txId, eventVersion, webhook_id),
          webhook_id,
          event_type: type,
          tx_id: txId,
          event_version: eventVersion,
          body,
          state: 'pending' as const,
          attempts_scheduled: 1,
          created_at: now,
          next_attempt_at: now,
          delivered_at: null,
        })),
      )
      .onConflict((conflict) => conflict.column('delivery_id').doNothing())
      .returning('delivery_id')
      .execute();
    await jobs.enqueue(
      trx,
      made.map(({ delivery_id }) => attemptJob(delivery_id, 1, 0)),
    );
    return made.length;
  });
}

export async function runWebhookFanOut(
  boss: PgBoss,
  deps: { db: Kysely<Database>; jobs: LedgerJobs; now: () => Date; log: Logger },
): Promise<void> {
  await workEach<{ txId: string; eventVersion: number }>(boss, WEBHOOK_FAN_OUT_QUEUE.name, async (job) => {
    const deliveries = await fanOut(deps.db, deps.jobs, job.data.txId, job.data.eventVersion, deps.now());
    if (deliveries > 0)
      deps.log.info(
        { txId: job.data.txId, eventVersion: job.data.eventVersion, deliveries },
        'webhook deliveries made',
      );
  });
}
