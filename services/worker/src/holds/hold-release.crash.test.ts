import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, verifyLedger, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';

const HOLDS = 60;
let database: TestDatabase;
let closeQueue: () => Promise<void>;
let worker: WorkerProcess | undefined;

/**
 * Sixty transfers whose holds have ended, each with its release job; a
 * worker process is SIGKILLed while it works through them and another is
 * started. Every hold must end released exactly once.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  const queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  closeQueue = queue.close;
  const settings: LedgerSettings = {
    holdHours: 24,
    jobs: queue.jobs,
    now: () => new Date(Date.now() - 25 * 3_600_000),
  };
  for (const owner of ['payer', 'payee']) await openWallets(database.db, owner, { currencies: ['CON'] });
  await executeLedgerCommand(
    database.db,
    {
      type: 'PurchaseCoins',
      txId: randomUUID(),
      ownerId: 'payer',
      charge: { amount: 500_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'test', type: 'CC' },
    },
    settings,
  );
  await Promise.all(
    Array.from({ length: HOLDS }, () =>
      executeLedgerCommand(
        database.db,
        {
          type: 'Transfer',
          txId: randomUUID(),
          kind: 'P2P',
          fromOwnerId: 'payer',
          toOwnerId: 'payee',
          amount: 1_00,
          fee: 0,
          currency: 'CON',
          memo: null,
        },
        settings,
      ),
    ),
  );
});
afterAll(async () => {
  await worker?.kill();
  await closeQueue();
  await database.drop();
});

async function releases(): Promise<{ released: number; twice: number }> {
  const { rows } = await sql<{ released: number; twice: number }>`
    SELECT count(*)::int AS released, (count(*) - count(DISTINCT stream_id))::int AS twice FROM events WHERE type = 'HoldReleased'
  `.execute(database.db);
  return rows[0] ?? { released: 0, twice: 0 };
}

describe('hold release when the worker is killed', () => {
  it('releases every hold exactly once across a SIGKILL and a restart', async () => {
    worker = await startWorkerProcess({ databaseUrl: database.url });
    await expect.poll(async () => (await releases()).released, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    const atKill = (await releases()).released;
    expect(atKill).toBeLessThan(HOLDS);

    worker = await startWorkerProcess({ databaseUrl: database.url });
    await expect.poll(releases, { timeout: 60_000, interval: 250 }).toEqual({ released: HOLDS, twice: 0 });
    const { rows } = await sql<{
      withdrawable: number;
    }>`SELECT withdrawable::int FROM wallets WHERE owner_id = 'payee'`.execute(database.db);
    expect(rows[0]?.withdrawable).toBe(HOLDS * 1_00);
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  }, 150_000);
});
