import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS, walletIdOf, type LedgerCommand } from '@peeks/ledger';
import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLedgerCommand } from './execute.ts';
import { DEFAULT_QUEUE_LIMIT, LedgerQueueFull, ledgerQueueCounts, limitLedgerQueue } from './group-commit.ts';
import { loadTransaction } from './transactions.ts';
import { openWallets } from './wallets.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const settings = { holdHours: 24 };
let txNumber = 0;
const transfer = (fromOwnerId: string, toOwnerId: string, amount: number): LedgerCommand => ({
  type: 'Transfer',
  txId: `queue-transfer-${++txNumber}`,
  kind: 'P2P',
  fromOwnerId,
  toOwnerId,
  amount,
  fee: 0,
  currency: 'CON',
  memo: null,
});

/** Opens the owner's CON wallet with one purchase: 1.00 USD buys 15.00 CON. */
async function fund(db: Kysely<Database>, ownerId: string, cents = 1_00): Promise<void> {
  await openWallets(db, ownerId, { currencies: ['CON'] });
  await executeLedgerCommand(
    db,
    {
      type: 'PurchaseCoins',
      txId: `queue-purchase-${ownerId}`,
      ownerId,
      charge: { amount: cents, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'pm', type: 'CC' },
    },
    settings,
  );
}

const totalOf = async (ownerId: string, db = database.db) =>
  (await sql<{ total: number }>`SELECT total FROM wallets WHERE wallet_id = ${walletIdOf(ownerId, 'CON')}`.execute(db))
    .rows[0]?.total;

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs `work` while another transaction holds `walletId`'s row: a batch on it waits in its commit, and the commands on
 * it after that wait for a batch, since batches in flight share no wallet. Resolves once the wallet is released again.
 */
async function whileLocked(
  db: Kysely<Database>,
  walletId: string,
  work: (release: () => Promise<void>) => Promise<void>,
): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`BEGIN`.execute(connection);
    await sql`SELECT 1 FROM wallets WHERE wallet_id = ${walletId} FOR UPDATE`.execute(connection);
    const lock = { held: true };
    const release = async () => {
      lock.held = false;
      await sql`COMMIT`.execute(connection);
    };
    try {
      await work(release);
    } finally {
      if (lock.held) await sql`ROLLBACK`.execute(connection);
    }
  });
}

const batchWaitsOnLock = (db: Kysely<Database>) =>
  until(async () => {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
    `.execute(db);
    return rows[0]?.waiting === 1;
  }, 'a batch to wait on the lock');

describe("the group commit's queue", () => {
  it('turns a command away beyond its limit, moving nothing, and takes commands again once it drains', async () => {
    await fund(database.db, 'queue-payer');
    await openWallets(database.db, 'queue-payee', { currencies: ['CON'] });
    limitLedgerQueue(database.db, 3);
    const beyond = transfer('queue-payer', 'queue-payee', 5_00);

    await whileLocked(database.db, walletIdOf('queue-payer', 'CON'), async (release) => {
      const first = executeLedgerCommand(database.db, transfer('queue-payer', 'queue-payee', 1_00), settings);
      await batchWaitsOnLock(database.db);
      const waiting = [2_00, 3_00, 4_00].map((amount) =>
        executeLedgerCommand(database.db, transfer('queue-payer', 'queue-payee', amount), settings),
      );
      expect(ledgerQueueCounts(database.db)).toEqual({ queued: 3, turnedAway: 0 });

      const refusal = await executeLedgerCommand(database.db, beyond, settings).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(LedgerQueueFull);
      expect(refusal).toMatchObject({ limit: 3, retryAfterSeconds: 1 });
      expect((refusal as Error).message).toBe(
        'The ledger is busy: 3 commands are waiting already. Nothing was done; try again in a second.',
      );
      expect(ledgerQueueCounts(database.db)).toEqual({ queued: 3, turnedAway: 1 });

      await release();
      const done = await Promise.all([first, ...waiting]);
      expect(done.map((outcome) => outcome.record.amount)).toEqual([1_00, 2_00, 3_00, 4_00]);
    });

    expect(await loadTransaction(database.db, beyond.txId)).toBeNull();
    expect(await totalOf('queue-payee')).toBe(10_00);
    expect(await totalOf('queue-payer')).toBe(15_00 - 10_00);
    expect(ledgerQueueCounts(database.db).queued).toBe(0);
    const again = await executeLedgerCommand(database.db, transfer('queue-payer', 'queue-payee', 5_00), settings);
    expect(again.replayed).toBe(false);
    expect(await totalOf('queue-payee')).toBe(15_00);
  });

  it(`holds ${DEFAULT_QUEUE_LIMIT} waiting commands unless told otherwise`, async () => {
    const fresh = await createTestDatabase({ max: 4 });
    const [payer, payee] = ['queue-default-payer', 'queue-default-payee'];
    const send = () => executeLedgerCommand(fresh.db, transfer(payer, payee, 1), settings);
    try {
      await fund(fresh.db, payer, 500_00);
      await openWallets(fresh.db, payee, { currencies: ['CON'] });
      await whileLocked(fresh.db, walletIdOf(payer, 'CON'), async (release) => {
        const first = send();
        await batchWaitsOnLock(fresh.db);
        const waiting = Array.from({ length: DEFAULT_QUEUE_LIMIT }, send);
        expect(ledgerQueueCounts(fresh.db).queued).toBe(DEFAULT_QUEUE_LIMIT);
        expect(await send().catch((error: unknown) => error)).toBeInstanceOf(LedgerQueueFull);
        await release();
        await Promise.all([first, ...waiting]);
      });
      expect(await totalOf(payee, fresh.db)).toBe(1 + DEFAULT_QUEUE_LIMIT);
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a limit that is not a whole number from 1', () => {
    expect(() => {
      limitLedgerQueue(database.db, 0);
    }).toThrow(RangeError);
    expect(() => {
      limitLedgerQueue(database.db, 1.5);
    }).toThrow(RangeError);
  });
});
