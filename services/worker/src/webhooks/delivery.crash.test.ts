import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { executeLedgerCommand, verifyLedger, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';
import { newMerchant, newSecret, newWebhook, startReceiver, type Receiver } from '../testing/webhooks.ts';

const SALES = 40;
let database: TestDatabase;
let closeQueue: () => Promise<void>;
let receiver: Receiver;
let worker: WorkerProcess | undefined;

/**
 * Forty purchases into a merchant's wallet, each told to its webhook. The
 * receiver answers each message's first request 500 and later ones 200,
 * every answer held back 300 ms so that requests are in flight; the worker
 * process is SIGKILLed half way through the first round and another is
 * started. Each message must end delivered, accepted by the receiver once
 * (it drops a webhook-id it has seen), with every attempt recorded once and
 * no attempt scheduled twice.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  const queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  closeQueue = queue.close;
  const secret = newSecret();
  receiver = await startReceiver(secret, (attempt) => ({ status: attempt === 0 ? 500 : 200, afterMs: 300 }));
  const shop = await newMerchant(database.db);
  await newWebhook(database.db, shop, { url: receiver.url, events: ['purchase'], secret });
  const settings: LedgerSettings = { holdHours: 24, jobs: queue.jobs };
  for (let sale = 0; sale < SALES; sale++) {
    await executeLedgerCommand(
      database.db,
      {
        type: 'PurchaseCoins',
        txId: randomUUID(),
        ownerId: shop.ownerId,
        charge: { amount: 1_00, currency: 'USD' },
        rateMicros: DEFAULT_RATE_MICROS,
        paymentMethod: { id: 'test', type: 'CC' },
      },
      settings,
    );
  }
});
afterAll(async () => {
  await worker?.kill();
  await receiver.close();
  await closeQueue();
  await database.drop();
});

const deliveredCount = async () =>
  (
    await sql<{
      count: number;
    }>`SELECT count(*)::int AS count FROM webhook_deliveries WHERE state = 'delivered'`.execute(database.db)
  ).rows[0]?.count;

describe('webhook delivery when the worker is killed', () => {
  it('delivers every message once, records every attempt once and schedules none twice, across a SIGKILL and a restart', async () => {
    worker = await startWorkerProcess({ databaseUrl: database.url, env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
    await expect.poll(() => receiver.requests, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(SALES / 2);
    await worker.kill();
    expect(await deliveredCount()).toBeLessThan(SALES);

    worker = await startWorkerProcess({ databaseUrl: database.url, env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
    await expect.poll(deliveredCount, { timeout: 90_000, interval: 250 }).toBe(SALES);

    expect(receiver.forged).toBe(0);
    expect(receiver.accepted.size).toBe(SALES);
    const { rows: deliveries } = await sql<{
      delivery_id: string;
      attempts_scheduled: number;
      recorded: number[];
      successes: number;
      jobs: number;
    }>`
      SELECT d.delivery_id, d.attempts_scheduled,
        array_agg(a.attempt ORDER BY a.attempt) AS recorded,
        count(*) FILTER (WHERE a.status_code = 200)::int AS successes,
        (SELECT count(*)::int FROM pgboss.job j WHERE j.name = 'webhook-attempt' AND j.data->>'deliveryId' = d.delivery_id) AS jobs
      FROM webhook_deliveries d JOIN webhook_attempts a USING (delivery_id)
      GROUP BY d.delivery_id, d.attempts_scheduled
    `.execute(database.db);
    expect(deliveries).toHaveLength(SALES);
    for (const delivery of deliveries) {
      // Attempts 1..n, each recorded once, the last the only success, and one job per attempt scheduled.
      expect(delivery.recorded).toEqual(Array.from({ length: delivery.attempts_scheduled }, (_, index) => index + 1));
      expect(delivery.successes).toBe(1);
      expect(delivery.jobs).toBe(delivery.attempts_scheduled);
    }
    // The kill caught POSTs in flight: the receiver saw more requests than attempts were recorded, the
    // re-sent ones with their message's webhook-id, and accepted each message once all the same.
    const recordedAttempts = deliveries.reduce((sum, each) => sum + each.attempts_scheduled, 0);
    expect(receiver.requests).toBeGreaterThan(recordedAttempts);
    expect(new Set(receiver.received.map((each) => each.id))).toEqual(
      new Set(deliveries.map((each) => each.delivery_id)),
    );
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  }, 180_000);
});
