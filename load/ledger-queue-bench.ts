import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { connectDatabase, migrateToLatest, openDatabaseServer } from '@peeks/db';
import { DEFAULT_RATE_MICROS, LedgerRuleViolation } from '@peeks/ledger';
import {
  DEFAULT_QUEUE_LIMIT,
  executeLedgerCommand,
  ledgerQueueCounts,
  limitLedgerQueue,
  openWallets,
} from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { createScratchDatabase } from './bench-kit.ts';

/**
 * What the group commit's queue costs when it fills up, the figures behind
 * DEFAULT_QUEUE_LIMIT: every commit is held up (another transaction locks
 * every wallet) while QUEUE_BENCH_COMMANDS transfers among 2,000 funded
 * wallets are submitted at once, so all but the two batches in flight wait
 * in the queue; then the lock goes and the queue drains. Prints the heap
 * each waiting command holds (run with --expose-gc for a clean reading),
 * and how fast a full queue drains: the wait of the last command in it.
 * Three rounds, after a warm-up in which the wallets become known. Runs
 * against DATABASE_URL, else an embedded server under .data/bench:
 *   npm exec -- node --expose-gc load/ledger-queue-bench.ts
 */
const WALLETS = 2_000;
const COMMANDS = Number(process.env.QUEUE_BENCH_COMMANDS ?? 5_000);
const ROUNDS = 3;
const SETUP_CONCURRENCY = 16;
const settings = { holdHours: 24 };

const owner = (index: number) => `queue-bench-${index}`;

function transferCommand() {
  const from = Math.floor(Math.random() * WALLETS);
  let to = Math.floor(Math.random() * WALLETS);
  while (to === from) to = Math.floor(Math.random() * WALLETS);
  return {
    type: 'Transfer' as const,
    txId: randomUUID(),
    kind: 'P2P' as const,
    fromOwnerId: owner(from),
    toOwnerId: owner(to),
    amount: 1 + Math.floor(Math.random() * 500),
    fee: 0,
    currency: 'CON' as const,
    memo: null,
  };
}

const collect = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
};

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(import.meta.dirname, '../.data/bench') },
    createLogger(config),
  );
  const scratch = await createScratchDatabase(server.url);
  const setup = connectDatabase(scratch.url, { max: SETUP_CONCURRENCY });
  const ledger = connectDatabase(scratch.url, { max: 32, preparedStatements: true });
  try {
    await migrateToLatest(setup.db);
    let next = 0;
    await Promise.all(
      Array.from({ length: SETUP_CONCURRENCY }, async () => {
        while (next < WALLETS) {
          const index = next++;
          await setup.db.transaction().execute(async (trx) => {
            await openWallets(trx, owner(index), { currencies: ['CON'] });
            await executeLedgerCommand(
              trx,
              {
                type: 'PurchaseCoins',
                txId: randomUUID(),
                ownerId: owner(index),
                charge: { amount: 500_00, currency: 'USD' },
                rateMicros: DEFAULT_RATE_MICROS,
                paymentMethod: { id: 'bench', type: 'CC' },
              },
              settings,
            );
          });
        }
      }),
    );
    limitLedgerQueue(ledger.db, COMMANDS);
    const transfer = () =>
      executeLedgerCommand(ledger.db, transferCommand(), settings).then(
        () => true,
        (error: unknown) => {
          if (error instanceof LedgerRuleViolation) return false;
          throw error;
        },
      );
    await Promise.all(Array.from({ length: WALLETS * 2 }, transfer));

    console.warn(
      `queue of ${COMMANDS} transfers behind locked wallets, ${WALLETS} wallets (default limit ${DEFAULT_QUEUE_LIMIT})`,
    );
    console.warn('round | waiting | heap per waiting command B | drain s | drained commands/s');
    for (let round = 1; round <= ROUNDS; round++) {
      await setup.db.connection().execute(async (connection) => {
        await sql`BEGIN`.execute(connection);
        await sql`SELECT 1 FROM wallets FOR UPDATE`.execute(connection);
        collect();
        const heapBefore = process.memoryUsage().heapUsed;
        const submitted = Array.from({ length: COMMANDS }, transfer);
        await new Promise((resolve) => setTimeout(resolve, 200));
        collect();
        const { queued } = ledgerQueueCounts(ledger.db);
        const perCommand = (process.memoryUsage().heapUsed - heapBefore) / queued;
        const started = performance.now();
        await sql`COMMIT`.execute(connection);
        await Promise.all(submitted);
        const seconds = (performance.now() - started) / 1000;
        console.warn(
          `${String(round).padStart(5)} | ${String(queued).padStart(7)} | ${perCommand.toFixed(0).padStart(26)} | ${seconds.toFixed(2).padStart(7)} | ${(COMMANDS / seconds).toFixed(0).padStart(18)}`,
        );
      });
    }
  } finally {
    await ledger.close();
    await setup.close();
    await scratch.drop();
    await server.stop();
  }
}

await main();
