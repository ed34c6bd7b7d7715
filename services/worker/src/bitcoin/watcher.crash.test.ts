import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';
import { bitcoinDepositor, startFakeEsplora, type FakeEsplora, type TestBitcoinDeposit } from '../testing/bitcoin.ts';

const PAID = 60;
const UNPAID = 10;
let database: TestDatabase;
let esplora: FakeEsplora;
let closeQueue: () => Promise<void>;
let worker: WorkerProcess | undefined;
let ownerId: string;
let paid: TestBitcoinDeposit[];

/**
 * Sixty deposits paid and confirmed before any worker runs, and ten unpaid
 * ones about to expire. A worker process is SIGKILLed while its poll is
 * clearing them (Esplora answers slowly, so the poll takes seconds) and
 * another is started. Every paid deposit must be cleared once and every
 * unpaid one expired once.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  esplora = await startFakeEsplora();
  const queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  closeQueue = queue.close;
  const depositor = await bitcoinDepositor(database.db, 'btc_crash_user');
  ownerId = depositor.ownerId;
  const settings = { holdHours: 24, jobs: queue.jobs };
  paid = [];
  for (let index = 0; index < PAID; index++) paid.push(await depositor.deposit(settings, { sats: 10_000 + index }));
  for (const deposit of paid) esplora.pay(deposit.address, deposit.sats);
  esplora.mine();
  for (let index = 0; index < UNPAID; index++)
    await depositor.deposit(settings, { sats: 5_000 + index, expiresInMs: 3_000 });
  esplora.delayMs = 150;
});
afterAll(async () => {
  await worker?.kill();
  await closeQueue();
  await esplora.close();
  await database.drop();
});

const watcherEnv = () => ({ BITCOIN_ESPLORA_URL: esplora.url, BITCOIN_CONFIRMATIONS: '1', BITCOIN_POLL_SECONDS: '1' });

/** Deposits by the watcher's state, and the ledger's clearing and expiry events (a second one for a deposit would be a bug). */
async function progress() {
  const { rows } = await sql<{
    cleared: number;
    expired: number;
    cleared_events: number;
    expired_events: number;
    cleared_twice: number;
  }>`
    SELECT
      (SELECT count(*)::int FROM bitcoin_deposits WHERE watch_state = 'cleared') AS cleared,
      (SELECT count(*)::int FROM bitcoin_deposits WHERE watch_state = 'expired') AS expired,
      (SELECT count(*)::int FROM events WHERE type = 'DepositCleared') AS cleared_events,
      (SELECT count(*)::int FROM events WHERE type = 'DepositExpired') AS expired_events,
      (SELECT count(*)::int FROM (SELECT stream_id FROM events WHERE type IN ('DepositCleared', 'DepositExpired') GROUP BY stream_id HAVING count(*) > 1) twice) AS cleared_twice
  `.execute(database.db);
  return rows[0];
}

describe('the bitcoin watcher when its worker is killed', () => {
  it('clears every paid deposit once and expires every unpaid one once across a SIGKILL and a restart', async () => {
    worker = await startWorkerProcess({ databaseUrl: database.url, env: watcherEnv() });
    await expect.poll(async () => (await progress())?.cleared, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    expect((await progress())?.cleared).toBeLessThan(PAID);

    worker = await startWorkerProcess({ databaseUrl: database.url, env: watcherEnv() });
    await expect.poll(progress, { timeout: 90_000, interval: 250 }).toEqual({
      cleared: PAID,
      expired: UNPAID,
      cleared_events: PAID,
      expired_events: UNPAID,
      cleared_twice: 0,
    });
    const coins = (await walletsOf(database.db, ownerId)).find((wallet) => wallet.currency === 'CON');
    expect(coins?.total).toBe(paid.reduce((sum, deposit) => sum + deposit.coins, 0));
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  }, 150_000);
});
