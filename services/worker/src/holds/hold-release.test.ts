import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, walletsOf, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { HOLD_RELEASE_QUEUE, jobId } from '@peeks/jobs';

const HOLD_HOURS = 24;
let database: TestDatabase;
let workers: Workers;
/** The ledger as the API runs it, but a day and an hour ago, so every hold it places has ended. */
let pastSettings: LedgerSettings;

beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    config: readConfig({ HOLD_HOURS: String(HOLD_HOURS) }),
    log: createLogger({ LOG_LEVEL: 'silent' }),
  });
  pastSettings = {
    holdHours: HOLD_HOURS,
    jobs: workers.jobs,
    now: () => new Date(Date.now() - (HOLD_HOURS + 1) * 3_600_000),
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
    pastSettings,
  );
});
afterAll(async () => {
  await workers.stop();
  await database.drop();
});

const transfer = (txId: string, amount: number) =>
  ({
    type: 'Transfer',
    txId,
    kind: 'P2P',
    fromOwnerId: 'payer',
    toOwnerId: 'payee',
    amount,
    fee: 0,
    currency: 'CON',
    memo: null,
  }) as const;

async function releaseJobs(txId: string): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM pgboss.job WHERE name = ${HOLD_RELEASE_QUEUE.name} AND id = ${jobId('hold-release', txId)}::uuid`.execute(
    database.db,
  );
  return rows[0]?.count ?? 0;
}

async function holdEvents(txId: string): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM events WHERE stream_id = ${`ledger-${txId}`} AND type = 'HoldReleased'`.execute(
    database.db,
  );
  return rows[0]?.count ?? 0;
}

const payeeWallet = async () => (await walletsOf(database.db, 'payee'))[0];

describe('hold release', () => {
  it('enqueues one release job with the transfer, and a retried transfer enqueues none', async () => {
    const txId = randomUUID();
    await executeLedgerCommand(database.db, transfer(txId, 1_00), {
      ...pastSettings,
      now: () => new Date(Date.now() + 3_600_000),
    });
    expect(await releaseJobs(txId)).toBe(1);
    const retry = await executeLedgerCommand(database.db, transfer(txId, 1_00), pastSettings);
    expect(retry.replayed).toBe(true);
    expect(await releaseJobs(txId)).toBe(1);
  });

  it('leaves no job behind when the transfer rolls back', async () => {
    const txId = randomUUID();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await executeLedgerCommand(trx, transfer(txId, 1_00), pastSettings);
        expect(
          await sql<{
            count: number;
          }>`SELECT count(*)::int AS count FROM pgboss.job WHERE id = ${jobId('hold-release', txId)}::uuid`.execute(
            trx,
          ),
        ).toMatchObject({ rows: [{ count: 1 }] });
        throw new Error('the request failed after the transfer');
      }),
    ).rejects.toThrow('the request failed after the transfer');
    expect(await releaseJobs(txId)).toBe(0);
  });

  it('makes the held money withdrawable when the hold ends, once however often the job runs', async () => {
    const before = await payeeWallet();
    const txId = randomUUID();
    await executeLedgerCommand(database.db, transfer(txId, 5_00), pastSettings);
    const held = await payeeWallet();
    expect(held?.available).toBe((before?.available ?? 0) + 5_00);
    expect(held?.withdrawable).toBe(before?.withdrawable);
    await expect
      .poll(async () => (await payeeWallet())?.withdrawable, { timeout: 15_000, interval: 200 })
      .toBe((before?.withdrawable ?? 0) + 5_00);

    // The same job once more, as after a worker died before reporting it done.
    await workers.boss.send(HOLD_RELEASE_QUEUE.name, { txId });
    await expect
      .poll(
        async () =>
          (
            await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM pgboss.job WHERE name = ${HOLD_RELEASE_QUEUE.name} AND data->>'txId' = ${txId} AND state = 'completed'
    `.execute(database.db)
          ).rows[0]?.count,
        { timeout: 15_000, interval: 200 },
      )
      .toBe(2);
    expect(await holdEvents(txId)).toBe(1);
    expect((await payeeWallet())?.withdrawable).toBe((before?.withdrawable ?? 0) + 5_00);
  });
});
