import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { newDatabaseClient, type Database } from '@peeks/db';
import { WALLET_CHANGES_CHANNEL, walletChangeFollower } from '@peeks/ledger-store';
import { sql, type Kysely } from 'kysely';

/** The p-th percentile of latencies sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const TICKS_PER_MS = 100 / 1000;

/** A process's command name and CPU time (user + system) so far in ms, from /proc; null once it has ended. */
export function processCpu(pid: number | string): { command: string; cpuMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat; fields[0] here is field 3.
    return {
      command: stat.slice(stat.indexOf('(') + 1, close),
      cpuMs: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS,
    };
  } catch {
    return null;
  }
}

/**
 * CPU time of the given postgres processes, by pid: the backends serving
 * the bench's database, so that other databases on a shared server do not
 * count.
 */
export function postgresCpuByPid(backends: ReadonlySet<string>): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const pid of backends) {
    const process = processCpu(pid);
    if (process?.command === 'postgres') cpu.set(pid, process.cpuMs);
  }
  return cpu;
}

/** The backends serving the database `db` is connected to, for postgresCpuByPid. */
export async function backendsOf(db: Kysely<Database>): Promise<Set<string>> {
  const { rows } = await sql<{
    pid: string;
  }>`SELECT pid::text FROM pg_stat_activity WHERE datname = current_database()`.execute(db);
  return new Set(rows.map((row) => row.pid));
}

/**
 * Postgres CPU spent between two readings, by the processes alive at the
 * second: a backend that exits in between (the pool closes idle ones) takes
 * its time with it, so this may count a little low, never below zero.
 */
export function postgresCpuSpent(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** A scratch database on the bench server; dropped by `drop`. */
export async function createScratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void>; keep: () => Promise<void> }> {
  const database = `peeks_bench_${randomBytes(3).toString('hex')}`;
  // A multi-host URL (a formation, its bouncers): created on the writable host.
  const admin = newDatabaseClient(serverUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`).catch(async (error: unknown) => {
    await admin.end();
    throw error;
  });
  return {
    // The same hosts and parameters, another database; not new URL(): it takes one host only.
    url: serverUrl.replace(/^([a-z]+:\/\/[^/?#]*)(\/[^?#]*)?/, `$1/${database}`),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
    /** Leaves the database for a look by hand; its maintenance connection would otherwise keep the process alive. */
    keep: () => admin.end(),
  };
}

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * One of the product's processes (`script` from the repository root) as a
 * child, with the memory settings `npm start` uses (package.json); its
 * output is kept (the last 4,000 characters) to show only if it fails.
 */
export function startProductProcess(
  script: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string } {
  // BENCH_CPU_PROFILE=<folder>: each product process writes a V8 CPU profile there when it exits.
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  // BENCH_TRACE=<folder>: each product process logs its garbage collections there, each line stamped with the epoch ms it arrived.
  const trace = process.env.BENCH_TRACE;
  const child = spawn(
    process.execPath,
    [...profile, ...(trace ? ['--trace-gc'] : []), '--max-semi-space-size=8', path.join(ROOT, script)],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', MALLOC_MMAP_THRESHOLD_: '131072', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  if (trace) {
    mkdirSync(trace, { recursive: true });
    const log = path.join(trace, `${path.basename(path.dirname(path.dirname(script)))}-${String(child.pid)}.gc.log`);
    child.stdout.on('data', (chunk: Buffer) => {
      const stamp = String(Date.now());
      appendFileSync(log, chunk.toString().replace(/^(?=.)/gm, `${stamp} `));
    });
  }
  child.stderr.on('data', keep);
  return { child, output: () => output };
}

/**
 * Listens to the commits' announcements on a connection of its own, as an
 * API process does (the ledger plugin): a wallet another process moved is
 * read before this one decides on it again. Without it, a bench's
 * in-process side would read every wallet the server moved before each of
 * its batches, and be measured slower than it is.
 */
export async function followWalletChanges(url: string, db: Kysely<Database>): Promise<() => Promise<void>> {
  const follower = walletChangeFollower(db);
  const client = newDatabaseClient(url, { application_name: 'bench-listen' });
  client.on('notification', (message) => {
    follower.notified(message.payload);
  });
  client.on('error', () => {
    follower.lost();
  });
  await client.connect();
  await client.query(`LISTEN ${WALLET_CHANGES_CHANNEL}`);
  follower.resumed();
  return async () => {
    follower.lost();
    await client.end();
  };
}
