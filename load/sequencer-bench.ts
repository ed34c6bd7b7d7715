import { loadavg } from 'node:os';
import { connectDatabase, migrateToLatest, runProjectionBatch } from '@peeks/db';
import { ledgerLog } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { processCpu } from './bench-kit.ts';

/**
 * The ledger log's sequencer alone: sequences every event of a copy of a
 * kept bench database (`BENCH_KEEP_DATABASE=1 npm run bench:ledger`, then
 * `BENCH_TEMPLATE=<its name>`) from scratch, in batches of `BENCH_BATCH`
 * (default 400, about one poll's worth at the bench's rate), and prints the
 * CPU each event cost Node and the one Postgres backend. Runs against
 * DATABASE_URL's server; the copy is dropped after.
 */
const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const template = process.env.BENCH_TEMPLATE ?? '';
const batchSize = Number(process.env.BENCH_BATCH ?? 400);
if (!/^[a-z0-9_]+$/.test(template)) throw new Error('BENCH_TEMPLATE names the kept bench database to copy');
const copy = `sequencer_bench_${String(process.pid)}`;
const admin = connectDatabase(serverUrl.href, { max: 1 });
await sql.raw(`CREATE DATABASE ${copy} TEMPLATE ${template}`).execute(admin.db);
const copyUrl = new URL(serverUrl);
copyUrl.pathname = `/${copy}`;
const bench = connectDatabase(copyUrl.href, { max: 1, preparedStatements: true });
try {
  await migrateToLatest(bench.db);
  await sql`DELETE FROM ledger_log_leaves`.execute(bench.db);
  await sql`DELETE FROM ledger_log_nodes`.execute(bench.db);
  await sql`DELETE FROM projection_checkpoints WHERE name = ${ledgerLog.name}`.execute(bench.db);
  await sql`VACUUM ANALYZE`.execute(bench.db);
  const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(bench.db);
  const backend = rows[0]?.pid ?? 0;
  const nodeBefore = process.cpuUsage();
  const postgresBefore = processCpu(backend)?.cpuMs ?? 0;
  const started = performance.now();
  let events = 0;
  for (let batch = -1; batch !== 0; events += batch) batch = await runProjectionBatch(bench.db, ledgerLog, batchSize);
  const seconds = (performance.now() - started) / 1000;
  const node = process.cpuUsage(nodeBefore);
  const postgresMs = (processCpu(backend)?.cpuMs ?? 0) - postgresBefore;
  const perEvent = (ms: number) => ((ms * 1000) / events).toFixed(1);
  console.warn(
    `${String(events)} events in batches of ${String(batchSize)}: ${seconds.toFixed(2)} s, ` +
      `Node ${perEvent((node.user + node.system) / 1000)} µs and Postgres ${perEvent(postgresMs)} µs of CPU per event ` +
      `(load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
  );
} finally {
  await bench.close();
  await sql.raw(`DROP DATABASE ${copy} WITH (FORCE)`).execute(admin.db);
  await admin.close();
}
