import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { merchantOwnerId } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, verifyLedger, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue, SETTLEMENT_RUN_QUEUE, type JobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';

const MERCHANTS = 60;
let database: TestDatabase;
let queue: { jobs: JobQueue; close: () => Promise<void> };
let worker: WorkerProcess | undefined;

/**
 * Sixty merchants with withdrawable money; a worker process is SIGKILLed
 * while it settles them and another is started. Every merchant must be
 * settled exactly once for the day.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  const settings: LedgerSettings = { holdHours: 24, jobs: queue.jobs };
  for (let merchant = 1; merchant <= MERCHANTS; merchant++) {
    const ownerId = merchantOwnerId(merchant);
    await openWallets(database.db, ownerId, { currencies: ['USD'] });
    await executeLedgerCommand(
      database.db,
      {
        type: 'CorrectBalance',
        txId: randomUUID(),
        ownerId,
        amount: merchant * 1_00,
        currency: 'USD',
        reason: 'sales',
        operatorId: 'test',
      },
      settings,
    );
  }
});
afterAll(async () => {
  await worker?.kill();
  await queue.close();
  await database.drop();
});

async function settled(): Promise<{ batches: number; merchants: number; amount: number }> {
  const { rows } = await sql<{ batches: number; merchants: number; amount: number }>`
    SELECT count(*)::int AS batches, count(DISTINCT data->>'merchantId')::int AS merchants, coalesce(sum((data->>'amount')::int8), 0)::int8 AS amount
    FROM events WHERE type = 'MerchantBatchSettled'
  `.execute(database.db);
  return rows[0] ?? { batches: 0, merchants: 0, amount: 0 };
}

describe('merchant settlement when the worker is killed', () => {
  it('settles every merchant once for the day across a SIGKILL and a restart', async () => {
    await queue.jobs.boss.send(SETTLEMENT_RUN_QUEUE.name, { period: '2026-11-21' });
    worker = await startWorkerProcess({ databaseUrl: database.url });
    await expect.poll(async () => (await settled()).batches, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    expect((await settled()).batches).toBeLessThan(MERCHANTS);

    worker = await startWorkerProcess({ databaseUrl: database.url });
    const total = ((MERCHANTS * (MERCHANTS + 1)) / 2) * 1_00;
    await expect
      .poll(settled, { timeout: 60_000, interval: 250 })
      .toEqual({ batches: MERCHANTS, merchants: MERCHANTS, amount: total });
    const { rows } = await sql<{
      total: number;
    }>`SELECT coalesce(sum(total), 0)::int8 AS total FROM wallets WHERE owner_id LIKE 'merchant-%'`.execute(
      database.db,
    );
    expect(rows[0]?.total).toBe(0);
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  }, 150_000);
});
