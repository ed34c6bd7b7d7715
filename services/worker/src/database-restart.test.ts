import { connectDatabase, startEmbeddedPostgres, type DatabaseHandle } from '@peeks/db';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, type LedgerJobs, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openJobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from './testing/worker-process.ts';

const log = createLogger({ LOG_LEVEL: 'silent' });
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Pays `payee` from a new payer, with a hold that has ended, so the worker has a release to do. */
async function transferWithEndedHold(database: DatabaseHandle, settings: LedgerSettings, payee: string): Promise<void> {
  const payer = `payer-${randomUUID()}`;
  await openWallets(database.db, payer, { currencies: ['CON'] });
  await executeLedgerCommand(
    database.db,
    {
      type: 'PurchaseCoins',
      txId: randomUUID(),
      ownerId: payer,
      charge: { amount: 10_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'test', type: 'CC' },
    },
    settings,
  );
  await executeLedgerCommand(
    database.db,
    {
      type: 'Transfer',
      txId: randomUUID(),
      kind: 'P2P',
      fromOwnerId: payer,
      toOwnerId: payee,
      amount: 1_00,
      fee: 0,
      currency: 'CON',
      memo: null,
    },
    settings,
  );
}

async function withdrawable(database: DatabaseHandle, owner: string): Promise<number> {
  const wallet = await database.db
    .selectFrom('wallets')
    .select('withdrawable')
    .where('owner_id', '=', owner)
    .executeTakeFirst();
  return wallet?.withdrawable ?? 0;
}

describe('workers across a database restart', () => {
  it('log the outage, keep running, and go on with their jobs once the database is back', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peeks-restart-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    // Run as root, the server runs as a `postgres` user, which must reach the directory.
    await chmod(dataDir, 0o755);
    let server = await startEmbeddedPostgres({ dataDir, database: 'peeks', log });
    cleanup.push(() => server.stop());
    const port = Number(new URL(server.url).port);

    const worker: WorkerProcess = await startWorkerProcess({ databaseUrl: server.url });
    cleanup.push(() => worker.kill());
    let database = connectDatabase(server.url, { applicationName: 'peeks-restart-test' });
    let queue = await openJobQueue(server.url, log);
    const settings = (jobs: LedgerJobs): LedgerSettings => ({
      holdHours: 24,
      jobs,
      now: () => new Date(Date.now() - 25 * 3_600_000),
    });
    await openWallets(database.db, 'payee', { currencies: ['CON'] });
    await transferWithEndedHold(database, settings(queue.jobs), 'payee');
    await expect.poll(() => withdrawable(database, 'payee'), { timeout: 30_000, interval: 200 }).toBe(1_00);

    await queue.close();
    await database.close();
    const linesBefore = worker.lines.length;
    await server.stop();
    // Well past a poll and a supervision round: the worker notices and says so, and stays up.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(worker.running()).toBe(true);
    const outage = worker.lines.slice(linesBefore).map((line) => JSON.parse(line) as { level: string; msg: string });
    // Told once as a warning, not as errors once per poller per second.
    expect(outage.filter((line) => line.msg.startsWith('database unreachable'))).toHaveLength(1);
    expect(outage.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);

    server = await startEmbeddedPostgres({ dataDir, database: 'peeks', log, port });
    database = connectDatabase(server.url, { applicationName: 'peeks-restart-test' });
    cleanup.push(() => database.close());
    queue = await openJobQueue(server.url, log);
    cleanup.push(() => queue.close());
    await worker.waitFor(/"msg":"database is back; the workers carry on"/);
    await transferWithEndedHold(database, settings(queue.jobs), 'payee');
    await expect.poll(() => withdrawable(database, 'payee'), { timeout: 60_000, interval: 250 }).toBe(2_00);
    expect(worker.running()).toBe(true);
  }, 180_000);
});
