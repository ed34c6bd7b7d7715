import type { Database } from '@peeks/db';
import type { LedgerJobs } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import { sql, type Kysely } from 'kysely';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { PgBoss } from 'pg-boss';
import {
  attemptJob,
  checkedAddresses,
  checkedLookup,
  literalAddress,
  queueEmail,
  WEBHOOK_ATTEMPT_QUEUE,
  type AttemptData,
  type DestinationPolicy,
} from '@peeks/jobs';
import { workEach } from '../job.ts';
import { retryAfterMs, waitBefore } from './schedule.ts';
import type { WebhookSettings } from './settings.ts';
import { signMessage } from './signing.ts';

/** What came back from one POST. */
export interface Answer {
  statusCode: number | null;
  /** Why there was no answer (timeout, connection refused, destination refused). */
  error: string | null;
  latencyMs: number;
  /** The first KiB of the answer's body. */
  responseBody: string | null;
  retryAfter: string | undefined;
}

const RESPONSE_KEPT_BYTES = 1024;
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * POSTs a signed message. The host is resolved and checked as the socket
 * connects (see checkedLookup), so a name that now points into a private
 * network is refused even though it passed when the webhook was saved.
 */
export async function postMessage(
  target: {
    url: string;
    secret: string;
    /** The secret before a rotation, while it still signs too. */
    previousSecret?: string | null;
    webhookId: string;
    body: string;
    sentAt: Date;
  },
  options: { policy: DestinationPolicy; timeoutMs: number },
): Promise<Answer> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const url = new URL(target.url);
  if (literalAddress(url.hostname) !== null) {
    const checked = await checkedAddresses(url.hostname, options.policy);
    if (typeof checked === 'string')
      return {
        statusCode: null,
        error: `destination refused: ${checked}`,
        latencyMs: latency(),
        responseBody: null,
        retryAfter: undefined,
      };
  }
  const timestamp = Math.floor(target.sentAt.getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'PeeksWallet-Webhooks/1',
    'webhook-id': target.webhookId,
    'webhook-timestamp': String(timestamp),
    // Standard Webhooks: several signatures, space-separated; a receiver accepts the message if any one verifies.
    'webhook-signature': [target.secret, ...(target.previousSecret ? [target.previousSecret] : [])]
      .map((secret) => signMessage(secret, target.webhookId, timestamp, target.body))
      .join(' '),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve) => {
    const failed = (error: Error) => {
      const reason =
        error.name === 'TimeoutError' || error.name === 'AbortError'
          ? `timed out after ${options.timeoutMs} ms`
          : ((error as { code?: string }).code ?? error.message);
      resolve({
        statusCode: null,
        error: error.name === 'DestinationRefused' ? error.message : reason,
        latencyMs: latency(),
        responseBody: null,
        retryAfter: undefined,
      });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: checkedLookup(options.policy),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        response.on('data', (chunk: Buffer) => {
          if (keptBytes >= RESPONSE_KEPT_BYTES) return;
          kept.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - keptBytes));
          keptBytes += Math.min(chunk.length, RESPONSE_KEPT_BYTES - keptBytes);
        });
        response.on('error', failed);
        response.on('end', () => {
          const retryAfter: string | undefined = response.headers['retry-after'];
          resolve({
            statusCode: response.statusCode ?? null,
            error: null,
            latencyMs: latency(),
            responseBody: Buffer.concat(kept).toString('utf8'),
            retryAfter,
          });
        });
      },
    );
    request.on('error', failed);
    request.end(target.body);
  });
}

type Outcome = 'delivered' | 'retrying' | 'failed' | 'disabled' | 'skipped';

/**
 * Makes one attempt of a delivery and records it. The attempt's row, the
 * delivery's new state and the next attempt's job are written in one
 * transaction, under the delivery's row lock, and only if this attempt was
 * not recorded yet: a job run twice (its worker died after the POST) sends
 * twice with the same webhook-id, which the receiver drops, but records
 * once and never enqueues a second next attempt.
 */
export async function attemptDelivery(
  db: Kysely<Database>,
  jobs: LedgerJobs,
  settings: WebhookSettings,
  job: AttemptData,
): Promise<Outcome> {
  const target = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.webhook_id', 'd.webhook_id')
    .leftJoin('webhook_attempts as a', (join) =>
      join.onRef('a.delivery_id', '=', 'd.delivery_id').on('a.attempt', '=', job.attempt),
    )
    .select([
      'd.body',
      'w.url',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_until',
      'w.state as webhookState',
      'a.attempt as recorded',
    ])
    .where('d.delivery_id', '=', job.deliveryId)
    .executeTakeFirst();
  // The webhook was deleted, with its deliveries; or this attempt is already on record.
  if (!target || target.recorded !== null) return 'skipped';
  if (target.webhookState === 'disabled') {
    await db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed', next_attempt_at: null })
      .where('delivery_id', '=', job.deliveryId)
      .where('attempts_scheduled', '=', job.attempt)
      .where('state', '=', 'pending')
      .execute();
    return 'skipped';
  }

  const sentAt = settings.now();
  const previousSecret =
    target.previous_secret_until !== null && target.previous_secret_until > sentAt ? target.previous_secret : null;
  const answer = await postMessage(
    { url: target.url, secret: target.secret, previousSecret, webhookId: job.deliveryId, body: target.body, sentAt },
    settings,
  );
  return recordAttempt(db, jobs, settings, job, answer, sentAt);
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

async function recordAttempt(
  db: Kysely<Database>,
  jobs: LedgerJobs,
  settings: WebhookSettings,
  job: AttemptData,
  answer: Answer,
  at: Date,
): Promise<Outcome> {
  if (isSuccess(answer.statusCode)) return recordSuccess(db, job, answer, at);
  return db.transaction().execute(async (trx): Promise<Outcome> => {
    const delivery = await trx
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'attempts_scheduled'])
      .where('delivery_id', '=', job.deliveryId)
      .forUpdate()
      .executeTakeFirst();
    if (!delivery) return 'skipped';
    const recorded = await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: job.deliveryId,
        attempt: job.attempt,
        attempted_at: at,
        status_code: answer.statusCode,
        error: answer.error,
        latency_ms: answer.latencyMs,
        response_body: answer.responseBody,
      })
      .onConflict((conflict) => conflict.columns(['delivery_id', 'attempt']).doNothing())
      .returning('attempt')
      .executeTakeFirst();
    if (!recorded) return 'skipped';
    const settle = (state: 'failed') =>
      trx
        .updateTable('webhook_deliveries')
        .set({ state, next_attempt_at: null })
        .where('delivery_id', '=', job.deliveryId)
        .execute();

    if (answer.statusCode === 410) {
      await disableWebhook(trx, jobs, delivery.webhook_id, 'The endpoint answered 410 Gone.', at);
      await settle('failed');
      return 'disabled';
    }
    const webhook = await trx
      .updateTable('webhooks')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(at)) }))
      .where('webhook_id', '=', delivery.webhook_id)
      .returning('failing_since')
      .executeTakeFirstOrThrow();
    const failingFor = at.getTime() - (webhook.failing_since ?? at).getTime();
    if (failingFor >= settings.disableAfterMs) {
      const days = Math.round(failingFor / (24 * 3600e3));
      await disableWebhook(
        trx,
        jobs,
        delivery.webhook_id,
        `Every delivery failed for ${days} day${days === 1 ? '' : 's'}.`,
        at,
      );
      await settle('failed');
      return 'disabled';
    }
    // Only the latest attempt of a delivery schedules the next one.
    if (delivery.attempts_scheduled !== job.attempt) return 'failed';
    const wait = waitBefore(settings.schedule, job.step + 1, retryAfterMs(answer.retryAfter, at));
    if (wait === null) {
      await settle('failed');
      return 'failed';
    }
    const next = new Date(at.getTime() + wait);
    await trx
      .updateTable('webhook_deliveries')
      .set({ attempts_scheduled: job.attempt + 1, next_attempt_at: next })
      .where('delivery_id', '=', job.deliveryId)
      .execute();
    await jobs.enqueue(trx, [attemptJob(job.deliveryId, job.attempt + 1, job.step + 1, next)]);
    return 'retrying';
  });
}

/**
 * A 2xx, the common case, in one statement (so one round trip and no
 * explicit transaction): the attempt's row, the delivery delivered, and
 * the webhook no longer failing, all or nothing, and nothing at all when
 * this attempt is on record already. No next attempt is scheduled, so the
 * delivery's row lock is not needed to decide one.
 */
async function recordSuccess(db: Kysely<Database>, job: AttemptData, answer: Answer, at: Date): Promise<Outcome> {
  const { rows } = await sql<{ delivered: number }>`
    WITH recorded AS (
      INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, latency_ms, response_body)
      VALUES (${job.deliveryId}, ${job.attempt}, ${at}, ${answer.statusCode}, NULL, ${answer.latencyMs}, ${answer.responseBody})
      ON CONFLICT (delivery_id, attempt) DO NOTHING
      RETURNING delivery_id
    ), delivered AS (
      UPDATE webhook_deliveries SET state = 'delivered', next_attempt_at = NULL, delivered_at = ${at}
      WHERE delivery_id IN (SELECT delivery_id FROM recorded)
      RETURNING webhook_id
    ), recovered AS (
      UPDATE webhooks SET failing_since = NULL WHERE webhook_id IN (SELECT webhook_id FROM delivered) AND failing_since IS NOT NULL
    )
    SELECT count(*)::int AS delivered FROM delivered
  `.execute(db);
  return rows[0]?.delivered === 1 ? 'delivered' : 'skipped';
}

/** Disables a webhook the worker gave up on and tells whoever set it up, by e-mail, in the same transaction. */
async function disableWebhook(
  trx: Kysely<Database>,
  jobs: LedgerJobs,
  webhookId: number,
  reason: string,
  at: Date,
): Promise<void> {
  const disabled = await trx
    .updateTable('webhooks')
    .set({ state: 'disabled', disabled_reason: reason, updated_at: at })
    .where('webhook_id', '=', webhookId)
    .where('state', '=', 'enabled')
    .returning(['user_id', 'url'])
    .executeTakeFirst();
  if (!disabled) return;
  const owner = await trx
    .selectFrom('users')
    .select('email')
    .where('user_id', '=', disabled.user_id)
    .executeTakeFirstOrThrow();
  await queueEmail(
    trx,
    jobs,
    {
      recipient: owner.email,
      template: 'webhook-disabled',
      subject: 'Your webhook has been disabled',
      // The person knows the webhook by its address, not by its id.
      payload: { url: disabled.url, reason },
    },
    at,
  );
}

/** How many attempt jobs one fetch takes; `concurrency` of them are in flight across the process's pollers. */
const BATCH = 10;

export async function runWebhookAttempts(
  boss: PgBoss,
  deps: { db: Kysely<Database>; jobs: LedgerJobs; settings: WebhookSettings; log: Logger },
): Promise<void> {
  const batchSize = Math.min(BATCH, deps.settings.concurrency);
  await workEach<AttemptData>(
    boss,
    WEBHOOK_ATTEMPT_QUEUE.name,
    async (job) => {
      const outcome = await attemptDelivery(deps.db, deps.jobs, deps.settings, job.data);
      deps.log.debug({ deliveryId: job.data.deliveryId, attempt: job.data.attempt, outcome }, 'webhook attempt');
    },
    {
      batchSize,
      localConcurrency: Math.ceil(deps.settings.concurrency / batchSize),
      pollingIntervalSeconds: deps.settings.pollingIntervalSeconds,
    },
  );
}
