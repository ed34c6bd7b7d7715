import path from 'node:path';
import { appendToStream, connectDatabase, migrateToLatest, openDatabaseServer, type DatabaseHandle } from '@peeks/db';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { createScratchDatabase, percentile } from './bench-kit.ts';

/**
 * `npm run bench:events`: single-event appends per second through the event
 * store (optimistic check, hash chain, stream head) at 1, 8 and 32
 * concurrent writers, beside plain INSERTs of the same rows into an
 * equivalent table with the same indexes, measured in the same run against
 * the same server. Runs against DATABASE_URL, else an embedded server under
 * .data/bench. BENCH_SECONDS sets the length of each measurement.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WRITER_COUNTS = [1, 8, 32];
const TARGET_AT_8 = 0.7;

interface Measurement {
  perSecond: number;
  latenciesMs: number[];
}

/** Runs `writers` loops of `operation` for `seconds`, counting completions and timing each. */
async function measure(
  writers: number,
  seconds: number,
  operation: (writer: number) => Promise<void>,
): Promise<Measurement> {
  const latenciesMs: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() < deadline) {
        const before = performance.now();
        await operation(writer);
        latenciesMs.push(performance.now() - before);
      }
    }),
  );
  return {
    perSecond: latenciesMs.length / ((performance.now() - started) / 1000),
    latenciesMs: latenciesMs.sort((a, b) => a - b),
  };
}

const payload = (writer: number, n: number) => ({
  walletId: `wallet-${writer}`,
  amount: 1000 + n,
  currency: 'CON',
  reference: `ref-${writer}-${n}`,
});
const metadata = {
  actor: 'bench',
  requestId: null,
  idempotencyKey: null,
  requestFingerprint: null,
  clientIp: '127.0.0.1',
};

async function eventStoreAppends(
  handle: DatabaseHandle,
  writers: number,
  seconds: number,
  label: string,
): Promise<Measurement> {
  const versions = Array.from({ length: writers }, () => 0);
  return measure(writers, seconds, async (writer) => {
    const result = await appendToStream(
      handle.db,
      `bench-${label}-${writer}`,
      [{ type: 'FundsDeposited', data: payload(writer, versions[writer] ?? 0) }],
      {
        expectedVersion: versions[writer] ?? 0,
        metadata,
      },
    );
    versions[writer] = result.version;
  });
}

async function rawInserts(
  handle: DatabaseHandle,
  writers: number,
  seconds: number,
  label: string,
): Promise<Measurement> {
  const versions = Array.from({ length: writers }, () => 0);
  const fakeHash = 'f'.repeat(64);
  return measure(writers, seconds, async (writer) => {
    const version = (versions[writer] ?? 0) + 1;
    versions[writer] = version;
    await sql`
      INSERT INTO raw_events (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
      VALUES (${`raw-${label}-${writer}`}, ${version}, 'FundsDeposited', ${JSON.stringify(payload(writer, version))}::jsonb,
              ${JSON.stringify(metadata)}::jsonb, ${new Date()}, ${fakeHash}, ${fakeHash})
    `.execute(handle.db);
  });
}

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(8);

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(import.meta.dirname, '../.data/bench') },
    log,
  );
  const scratch = await createScratchDatabase(server.url);
  const url = scratch.url;

  try {
    const setup = connectDatabase(url, { max: 1 });
    await migrateToLatest(setup.db);
    // Same columns and indexes as `events`; no stream heads, hashes or checks.
    await sql`CREATE TABLE raw_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING INDEXES INCLUDING CONSTRAINTS)`.execute(
      setup.db,
    );
    await setup.close();

    console.warn(`event store vs raw INSERT, ${SECONDS}s per measurement, single-event appends, one stream per writer`);
    const rows: string[] = [];
    let ratioAt8 = Number.NaN;
    for (const writers of WRITER_COUNTS) {
      const handle = connectDatabase(url, { max: writers });
      await eventStoreAppends(handle, writers, 1, `warm${writers}`);
      await rawInserts(handle, writers, 1, `warm${writers}`);
      // Alternate halves so drift in the machine's load hits both sides alike.
      const store1 = await eventStoreAppends(handle, writers, SECONDS / 2, `a${writers}`);
      const raw1 = await rawInserts(handle, writers, SECONDS / 2, `a${writers}`);
      const raw2 = await rawInserts(handle, writers, SECONDS / 2, `b${writers}`);
      const store2 = await eventStoreAppends(handle, writers, SECONDS / 2, `b${writers}`);
      await handle.close();

      const store = {
        perSecond: (store1.perSecond + store2.perSecond) / 2,
        latenciesMs: [...store1.latenciesMs, ...store2.latenciesMs].sort((a, b) => a - b),
      };
      const raw = {
        perSecond: (raw1.perSecond + raw2.perSecond) / 2,
        latenciesMs: [...raw1.latenciesMs, ...raw2.latenciesMs].sort((a, b) => a - b),
      };
      const ratio = store.perSecond / raw.perSecond;
      if (writers === 8) ratioAt8 = ratio;
      rows.push(
        `${String(writers).padStart(7)} |${format(store.perSecond)} |${format(percentile(store.latenciesMs, 50), 2)} |${format(percentile(store.latenciesMs, 95), 2)} |${format(percentile(store.latenciesMs, 99), 2)} |` +
          `${format(raw.perSecond)} |${format(percentile(raw.latenciesMs, 50), 2)} |${format(percentile(raw.latenciesMs, 95), 2)} |${format(percentile(raw.latenciesMs, 99), 2)} |${format(ratio * 100, 1)}%`,
      );
    }
    console.warn('');
    console.warn(
      'writers | store/s  | p50 ms   | p95 ms   | p99 ms   | raw/s    | p50 ms   | p95 ms   | p99 ms   | store/raw',
    );
    for (const row of rows) console.warn(row);
    console.warn('');
    console.warn(
      `at 8 writers the event store reaches ${(ratioAt8 * 100).toFixed(1)}% of the raw insert rate (target ${TARGET_AT_8 * 100}%): ${ratioAt8 >= TARGET_AT_8 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await scratch.drop();
    await server.stop();
  }
}

await main();
