import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { connectDatabase, migrateToLatest, openDatabaseServer, type Database } from '@peeks/db';
import { createLogger, readConfig } from '@peeks/runtime';
import { attemptJob, openJobQueue, type JobQueue } from '@peeks/jobs';
import { deliveryIdOf, signMessage } from '@peeks/worker';
import { newMerchant, newSecret, newWebhook, startReceiver, type Receiver } from '@peeks/worker/testing';
import { sql, type Kysely } from 'kysely';
import { createScratchDatabase, startProductProcess } from './bench-kit.ts';

/**
 * `npm run bench:webhooks`: webhook delivery to a local receiver.
 *
 * One receiver on loopback (node:http, checking every signature as the
 * Standard Webhooks spec tells a receiver to) serves three measurements:
 * 1. its raw rate: signed POSTs of a message's size from this process, 100
 *    at a time on keep-alive connections, for BENCH_SECONDS (default 10);
 * 2. deliveries per second through the real worker (services/worker's
 *    main.ts, as `npm run worker` runs it, in a child process with
 *    WEBHOOK_CONCURRENCY=100) of BENCH_DELIVERIES pending deliveries
 *    (default 10,000), from the first attempt recorded to the last, with
 *    the worker's peak resident memory (VmHWM);
 * 3. a backlog of BENCH_BACKLOG pending deliveries (100,000) given to a
 *    fresh worker, whose memory is watched for BENCH_BACKLOG_SECONDS (30)
 *    while it works through it; it must stay under 300 MB.
 * The deliveries are written straight to the tables with their first
 * attempt's job, as the fan-out writes them, so that only delivery is
 * measured. Runs against DATABASE_URL's server, else an embedded one under
 * .data/bench, in a scratch database dropped at the end.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 100_000);
const BACKLOG_SECONDS = Number(process.env.BENCH_BACKLOG_SECONDS ?? 30);
const CONCURRENCY = 100;
const TARGET_WORKER_MB = 300;
const INSERT_CHUNK = 5_000;
const ROOT = path.resolve(import.meta.dirname, '..');

/** A message body of the size a purchase webhook sends. */
const sampleBody = (index: number) =>
  JSON.stringify({
    type: 'purchase',
    timestamp: new Date().toISOString(),
    data: {
      transaction_id: `bench-${index}`,
      ledger_event: 'FundsTransferred',
      amount: 3_00,
      fee: 0,
      currency: 'CON',
      memo: 'order 12',
    },
  });

// ---------------------------------------------------------------------------
// 1. The receiver's raw rate

async function rawPostRate(receiver: Receiver, secret: string): Promise<number> {
  const url = new URL(receiver.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const post = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const id = deliveryIdOf(`raw-${index}`, 1, 0);
      const body = sampleBody(index);
      const timestamp = Math.floor(Date.now() / 1000);
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signMessage(secret, id, timestamp, body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            resolve();
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  let sent = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) await post(sent++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return sent / seconds;
}

// ---------------------------------------------------------------------------
// 2 and 3. Deliveries through the worker

/** Pending deliveries with their first attempt's job, written in chunks, each chunk in one transaction as the fan-out does. */
async function enqueueDeliveries(
  db: Kysely<Database>,
  jobs: JobQueue,
  webhookId: number,
  prefix: string,
  count: number,
): Promise<void> {
  for (let start = 0; start < count; start += INSERT_CHUNK) {
    const now = new Date();
    const rows = Array.from({ length: Math.min(INSERT_CHUNK, count - start) }, (_, offset) => {
      const index = start + offset;
      return {
        delivery_id: deliveryIdOf(`${prefix}-${index}`, 1, webhookId),
        webhook_id: webhookId,
        event_type: 'purchase',
        tx_id: `${prefix}-${index}`,
        event_version: 1,
        body: sampleBody(index),
        state: 'pending' as const,
        attempts_scheduled: 1,
        created_at: now,
        next_attempt_at: now,
        delivered_at: null,
      };
    });
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('webhook_deliveries').values(rows).execute();
      await jobs.enqueue(
        trx,
        rows.map((row) => attemptJob(row.delivery_id, 1, 0)),
      );
    });
  }
}

/** The worker as `npm run worker` runs it; its output goes to ours only on failure. */
function startWorker(databaseUrl: string) {
  return startProductProcess('services/worker/src/main.ts', {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The worker's resident memory now and its high-water mark (VmHWM), in MB, from /proc. */
function workerMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const delivered = async (db: Kysely<Database>, prefix: string) =>
  Number(
    (
      await sql<{
        count: string;
      }>`SELECT count(*) AS count FROM webhook_deliveries WHERE state = 'delivered' AND tx_id LIKE ${`${prefix}-%`}`.execute(
        db,
      )
    ).rows[0]?.count ?? 0,
  );

interface Throughput {
  perSecond: number;
  failedAttempts: number;
  peakMb: number;
}

async function deliveryRate(db: Kysely<Database>, url: string, jobs: JobQueue, webhookId: number): Promise<Throughput> {
  await enqueueDeliveries(db, jobs, webhookId, 'rate', DELIVERIES);
  const worker = startWorker(url);
  try {
    const deadline = Date.now() + 15 * 60_000;
    while ((await delivered(db, 'rate')) < DELIVERIES) {
      if (worker.child.exitCode !== null)
        throw new Error(`the worker exited with ${worker.child.exitCode}:\n${worker.output()}`);
      if (Date.now() > deadline) throw new Error('the deliveries took longer than 15 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const peakMb = workerMemoryMb(worker.child.pid ?? 0).peak;
    const {
      rows: [span],
    } = await sql<{ seconds: number; failed: string }>`
      SELECT extract(epoch FROM max(attempted_at) - min(attempted_at))::float8 AS seconds, count(*) FILTER (WHERE status_code IS DISTINCT FROM 200) AS failed
      FROM webhook_attempts WHERE delivery_id IN (SELECT delivery_id FROM webhook_deliveries WHERE tx_id LIKE 'rate-%')
    `.execute(db);
    return { perSecond: DELIVERIES / (span?.seconds ?? Number.NaN), failedAttempts: Number(span?.failed ?? 0), peakMb };
  } finally {
    await stopWorker(worker.child);
  }
}

interface Backlog {
  peakMb: number;
  deliveredInWindow: number;
}

async function backlogMemory(db: Kysely<Database>, url: string, jobs: JobQueue, webhookId: number): Promise<Backlog> {
  await enqueueDeliveries(db, jobs, webhookId, 'backlog', BACKLOG);
  const worker = startWorker(url);
  try {
    let peakMb = 0;
    const until = Date.now() + BACKLOG_SECONDS * 1000;
    while (Date.now() < until) {
      if (worker.child.exitCode !== null)
        throw new Error(`the worker exited with ${worker.child.exitCode}:\n${worker.output()}`);
      peakMb = Math.max(peakMb, workerMemoryMb(worker.child.pid ?? 0).peak);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { peakMb, deliveredInWindow: await delivered(db, 'backlog') };
  } finally {
    await stopWorker(worker.child);
  }
}

// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const server = await openDatabaseServer({ ...config, DATA_DIR: path.resolve(ROOT, '.data/bench') }, log);
  try {
    const scratch = await createScratchDatabase(server.url);
    const database = connectDatabase(scratch.url, { max: 4 });
    const queue = await openJobQueue(scratch.url, log).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
    const secret = newSecret();
    const receiver = await startReceiver(secret, () => ({ status: 200 }), { keepRequests: false });
    try {
      await migrateToLatest(database.db);
      const merchant = await newMerchant(database.db);
      const webhookId = await newWebhook(database.db, merchant, { url: receiver.url, events: ['purchase'], secret });

      console.warn(`webhook delivery to a local receiver, ${CONCURRENCY} at a time`);
      const raw = await rawPostRate(receiver, secret);
      console.warn(`raw POSTs: ${raw.toFixed(0)}/s over ${SECONDS}s`);
      const rate = await deliveryRate(database.db, scratch.url, queue.jobs, webhookId);
      console.warn(`deliveries: ${rate.perSecond.toFixed(0)}/s for ${DELIVERIES}`);
      const backlog = await backlogMemory(database.db, scratch.url, queue.jobs, webhookId);

      const duplicates = [...receiver.accepted.values()].filter((count) => count > 1).length;
      console.warn('');
      const rows: [string, string][] = [
        [`receiver, raw signed POSTs at ${CONCURRENCY} concurrent`, `${raw.toFixed(0)}/s`],
        [
          `worker, deliveries at ${CONCURRENCY} concurrent jobs`,
          `${rate.perSecond.toFixed(0)}/s (${((rate.perSecond / raw) * 100).toFixed(0)}% of raw)`,
        ],
        [`worker peak RSS, ${DELIVERIES} deliveries`, `${rate.peakMb.toFixed(0)} MB`],
        [
          `worker peak RSS, backlog of ${BACKLOG} (${BACKLOG_SECONDS}s)`,
          `${backlog.peakMb.toFixed(0)} MB (${backlog.deliveredInWindow} delivered meanwhile)`,
        ],
        [
          'failed attempts / bad signatures / duplicate ids',
          `${rate.failedAttempts} / ${receiver.forged} / ${duplicates}`,
        ],
      ];
      const width = Math.max(...rows.map(([name]) => name.length));
      console.warn(`${'measurement'.padEnd(width)} | value`);
      console.warn(`${'-'.repeat(width)}-|-${'-'.repeat(30)}`);
      for (const [name, value] of rows) console.warn(`${name.padEnd(width)} | ${value}`);
      console.warn('');
      const met = backlog.peakMb < TARGET_WORKER_MB && rate.peakMb < TARGET_WORKER_MB;
      console.warn(
        `a backlog of ${BACKLOG} pending deliveries keeps the worker under ${TARGET_WORKER_MB} MB: ${met ? 'met' : 'NOT met'}`,
      );
    } finally {
      await receiver.close();
      await queue.close();
      await database.close();
      await scratch.drop();
    }
  } finally {
    await server.stop();
  }
}

await main();
