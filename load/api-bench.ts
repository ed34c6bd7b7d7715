import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { connectDatabase, lagMs, openDatabaseServer, parseLsn, type Database } from '@peeks/db';
import { startScratchServer, startScratchStandby } from '@peeks/db/scratch-server';
import { DEFAULT_RATE_MICROS, LedgerRuleViolation } from '@peeks/ledger';
import { executeLedgerCommand, type LedgerSettings } from '@peeks/ledger-store';
import { openJobQueue } from '@peeks/jobs';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql, type Kysely } from 'kysely';
import {
  backendsOf,
  createScratchDatabase,
  followWalletChanges,
  percentile,
  postgresCpuByPid,
  postgresCpuSpent,
  processCpu,
  startProductProcess,
} from './bench-kit.ts';
import { openLoopLine, runOpenLoop } from './open-loop.ts';

/**
 * `npm run bench:api`: send-fund over HTTP, sessions and CSRF included,
 * beside the same transfers through the ledger in this process, in one run.
 *
 * The API runs as `npm start` runs it (services/server/src/main.ts, workers
 * off) in a child process, against a fresh database on DATABASE_URL's server
 * or an embedded one under .data/bench. BENCH_USERS users sign up over HTTP
 * (each from its own X-Forwarded-For address, so the registration limit of
 * one address does not stop the set-up; the child trusts one proxy hop) and
 * are funded by a purchase each. Then 64 connections send funds between
 * random pairs of them (10% of them to one hot payee, standing for a
 * popular merchant's wallet), each request with its sender's cookie, CSRF token
 * and a fresh Idempotency-Key, as the web app sends them; the in-process
 * side runs the same pairs and amounts through executeLedgerCommand at the
 * same concurrency, enqueueing the same hold-release jobs as the API does.
 * The two alternate in halves so drift in the machine's
 * load hits both alike. BENCH_SECONDS sets the length of each side (default
 * 20), BENCH_CONNECTIONS the concurrency (64), BENCH_LOG_LEVEL the server's
 * log level (warn; `info` logs a line per request), BENCH_USERS the number
 * of users (400), and BENCH_IDEMPOTENCY_KEYS=off leaves the keys out (each
 * key is one more committed INSERT per request, which the in-process side
 * does not do).
 *
 * Then, over HTTP, requests on a fixed schedule at 50% and 80% of the
 * closed-loop rate for BENCH_OPEN_LOOP_SECONDS each (10; 0 leaves them
 * out), latency counted from each request's scheduled start (load/open-loop.ts).
 * BENCH_TRACE=<folder> writes there each open-loop request's schedule and
 * latency, and each product process's garbage collections, to find what a
 * stall in the tail lined up with.
 *
 * BENCH_READS=1 runs the read-heavy form instead (see readHeavy): list
 * reads with a few sends, against one API process reading from the primary
 * only and one reading from a streaming standby, side by side.
 *
 * BENCH_SERVE=1 stops after the set-up instead: the API keeps running and
 * the users' guser_id, session cookie and CSRF token are written to
 * .data/bench/send-fund-users.json for `k6 run load/k6/send-fund.js`, the
 * same scenario for k6 users, until Ctrl-C.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const USERS = Number(process.env.BENCH_USERS ?? 400);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const WARM_UP_SECONDS = 2;
const SIGN_UP_CONCURRENCY = 8;
const PURCHASE_CENTS = 500_00;
/** Small transfers, so a wallet funded once rarely runs dry; refusals are counted apart. */
const MAX_TRANSFER = 500;
const PASSWORD = 'Bench1234';
const TARGET = { ratio: 0.8, p99Ms: 50, serverMb: 300 };
/** BENCH_API_PROCESSES=1 leaves out the run across two API processes and a worker process. */
const TWO_PROCESSES = process.env.BENCH_API_PROCESSES !== '1';
const SERVE = process.env.BENCH_SERVE === '1';
const IDEMPOTENCY_KEYS = process.env.BENCH_IDEMPOTENCY_KEYS !== 'off';
/** Seconds of open-loop sends at 50% and 80% of the closed-loop peak over HTTP; 0 leaves them out. */
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 10);

const ROOT = path.resolve(import.meta.dirname, '..');

interface User {
  userId: number;
  guserId: string;
  cookie: string;
  csrfToken: string;
}

interface Measurement {
  perSecond: number;
  latenciesMs: number[];
  refused: number;
  failed: number;
  /** CPU time per completed transfer: of the Node process doing the work (the server, or this one in process), of this process as the HTTP client, and of Postgres's backends. */
  cpuMsEach: CpuTimes;
}

interface CpuTimes {
  node: number;
  client: number;
  postgres: number;
}

// ---------------------------------------------------------------------------
// HTTP: one keep-alive agent with a socket per connection

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string[];
}

function request(
  port: number,
  method: 'GET' | 'POST',
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
            setCookie: response.headers['set-cookie'] ?? [],
          });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const sessionCookie = (answer: Answer, previous: string) =>
  answer.setCookie.find((each) => each.startsWith('__Host-peeks_session='))?.split(';')[0] ?? previous;

/** A new personal user, signed in: GET /api/session, then registration from address 10.x.y.z (the user's number). */
async function signUp(port: number, index: number): Promise<User> {
  const forwardedFor = { 'x-forwarded-for': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}` };
  const opened = await request(port, 'GET', '/api/session', forwardedFor);
  const username = `bench_${index}_${randomUUID().slice(0, 8)}`;
  const registered = await request(
    port,
    'POST',
    '/api/register/personal',
    { ...forwardedFor, cookie: sessionCookie(opened, ''), 'x-csrf-token': String(opened.body.csrfToken) },
    {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      confirm_password: PASSWORD,
      birthday: '01-01-1990',
      country: 'US',
      termsAccepted: 1,
    },
  );
  if (registered.status !== 200)
    throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body).slice(0, 200)}`);
  const user = registered.body.user as { user_id: number; guser_id: string };
  return {
    userId: user.user_id,
    guserId: user.guser_id,
    cookie: sessionCookie(registered, ''),
    csrfToken: String(registered.body.csrfToken),
  };
}

// ---------------------------------------------------------------------------
// The workload, shared by both sides

/** The share of payments to the hot payee (users[0]), standing for a popular merchant's wallet that every process pays into. */
const HOT_SHARE = 0.1;

function pickPair(users: readonly User[]): [User, User] {
  if (Math.random() < HOT_SHARE)
    return [users[1 + Math.floor(Math.random() * (users.length - 1))] as User, users[0] as User];
  const from = Math.floor(Math.random() * users.length);
  let to = Math.floor(Math.random() * users.length);
  while (to === from) to = Math.floor(Math.random() * users.length);
  return [users[from] as User, users[to] as User];
}
const randomAmount = () => 1 + Math.floor(Math.random() * MAX_TRANSFER);
const ownerOf = (user: User) => `user-${user.userId}`;

type Outcome = 'done' | 'refused' | 'failed';

/**
 * Send-fund over HTTP, each call to the next of `ports` in turn (one port:
 * one API process); `done` counts the calls each port answered as done.
 */
function httpSendFund(
  ports: readonly number[],
  users: readonly User[],
  done = new Map<number, number>(),
): () => Promise<Outcome> {
  let next = 0;
  return async () => {
    const port = ports[next++ % ports.length] ?? Number.NaN;
    const [from, to] = pickPair(users);
    const headers = {
      cookie: from.cookie,
      'x-csrf-token': from.csrfToken,
      ...(IDEMPOTENCY_KEYS ? { 'idempotency-key': randomUUID() } : {}),
    };
    const answer = await request(port, 'POST', '/api/account/send-fund', headers, {
      guser_id: to.guserId,
      amount: randomAmount(),
    });
    if (answer.status === 200) done.set(port, (done.get(port) ?? 0) + 1);
    return answer.status === 200 ? 'done' : answer.status === 422 ? 'refused' : 'failed';
  };
}

function ledgerSendFund(
  db: Kysely<Database>,
  users: readonly User[],
  settings: LedgerSettings,
): () => Promise<Outcome> {
  return async () => {
    const [from, to] = pickPair(users);
    try {
      await executeLedgerCommand(
        db,
        {
          type: 'Transfer',
          txId: `tx_${randomUUID().replaceAll('-', '')}`,
          kind: 'P2P',
          fromOwnerId: ownerOf(from),
          toOwnerId: ownerOf(to),
          amount: randomAmount(),
          fee: 0,
          currency: 'CON',
          memo: null,
        },
        settings,
      );
      return 'done';
    } catch (error) {
      if (error instanceof LedgerRuleViolation) return 'refused';
      throw error;
    }
  };
}

/** Where a side's CPU goes: the Node process doing the work, and the HTTP client (none in process). */
interface Side {
  operation: () => Promise<Outcome>;
  nodeCpuMs: () => number;
  clientCpuMs: () => number;
}

/** CPU time of the side's processes and of the database's backends at one moment. */
async function readCpu(db: Kysely<Database>, side: Side) {
  return { node: side.nodeCpuMs(), client: side.clientCpuMs(), postgres: postgresCpuByPid(await backendsOf(db)) };
}

/** `callers` loops of `operation` for `seconds`; only completed transfers count towards the rate and latencies. */
async function measure(db: Kysely<Database>, callers: number, seconds: number, side: Side): Promise<Measurement> {
  const { operation } = side;
  const cpuBefore = await readCpu(db, side);
  const latenciesMs: number[] = [];
  let refused = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const before = performance.now();
        const outcome = await operation();
        if (outcome === 'done') latenciesMs.push(performance.now() - before);
        else if (outcome === 'refused') refused++;
        else failed++;
      }
    }),
  );
  const perSecond = latenciesMs.length / ((performance.now() - started) / 1000);
  const cpuAfter = await readCpu(db, side);
  const count = Math.max(1, latenciesMs.length);
  const cpuMsEach = {
    node: (cpuAfter.node - cpuBefore.node) / count,
    client: (cpuAfter.client - cpuBefore.client) / count,
    postgres: postgresCpuSpent(cpuBefore.postgres, cpuAfter.postgres) / count,
  };
  return { perSecond, latenciesMs: latenciesMs.sort((a, b) => a - b), refused, failed, cpuMsEach };
}

const combine = (parts: readonly Measurement[]): Measurement => ({
  perSecond: parts.reduce((sum, part) => sum + part.perSecond, 0) / parts.length,
  latenciesMs: parts.flatMap((part) => part.latenciesMs).sort((a, b) => a - b),
  refused: parts.reduce((sum, part) => sum + part.refused, 0),
  failed: parts.reduce((sum, part) => sum + part.failed, 0),
  cpuMsEach: {
    node: parts.reduce((sum, part) => sum + part.cpuMsEach.node, 0) / parts.length,
    client: parts.reduce((sum, part) => sum + part.cpuMsEach.client, 0) / parts.length,
    postgres: parts.reduce((sum, part) => sum + part.cpuMsEach.postgres, 0) / parts.length,
  },
});

// ---------------------------------------------------------------------------
// The server process

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The API as `npm start` runs it, with the workers off; its output goes to ours only on failure. */
/** The workers alone, as `npm run worker` runs them beside API processes. */
function startWorker(databaseUrl: string) {
  return startProductProcess('services/worker/src/main.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL });
}

function startServer(databaseUrl: string, port: number, env: NodeJS.ProcessEnv = {}) {
  return startProductProcess('services/server/src/main.ts', {
    ...env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    WORKERS: 'off',
    DEMO_DATA: 'off',
    LOG_LEVEL,
    TRUST_PROXY_HOPS: '1',
  });
}

async function waitForHealth(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await request(port, 'GET', '/api/health', {})).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the API did not answer /api/health within 60 s:\n${output()}`);
}

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** The server's resident memory now and its high-water mark (VmHWM), in MB, from /proc. */
function serverMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Leaves the API up for k6 with the users' sessions in a file, until SIGINT or SIGTERM. */
async function serveForK6(port: number, users: readonly User[]): Promise<void> {
  const file = path.resolve(ROOT, '.data/bench/send-fund-users.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      users.map(({ guserId, cookie, csrfToken }) => ({ guser_id: guserId, cookie, csrf_token: csrfToken })),
    ),
  );
  console.warn(`API on http://127.0.0.1:${port}; users in ${file}`);
  console.warn(
    `run: k6 run -e BASE_URL=http://127.0.0.1:${port} -e USERS_FILE=${file} load/k6/send-fund.js   (Ctrl-C here when done)`,
  );
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

// ---------------------------------------------------------------------------

async function forEachConcurrently<T>(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

async function fundAll(db: Kysely<Database>, users: readonly User[]): Promise<number> {
  const coins = await forEachConcurrently(users.length, 16, async (index) => {
    const outcome = await executeLedgerCommand(
      db,
      {
        type: 'PurchaseCoins',
        txId: randomUUID(),
        ownerId: ownerOf(users[index] as User),
        charge: { amount: PURCHASE_CENTS, currency: 'USD' },
        rateMicros: DEFAULT_RATE_MICROS,
        paymentMethod: { id: 'bench', type: 'CC' },
      },
      { holdHours: 24 },
    );
    return outcome.record.amount;
  });
  return coins.reduce((sum, each) => sum + each, 0);
}

async function conservedTotal(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    total: number;
  }>`SELECT coalesce(sum(total), 0)::bigint AS total FROM wallets WHERE currency = 'CON'`.execute(db);
  return rows[0]?.total ?? Number.NaN;
}

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(9);
const row = (name: string, m: Measurement) =>
  `${name.padEnd(26)} |${format(m.perSecond)} |${format(percentile(m.latenciesMs, 50), 2)} |${format(percentile(m.latenciesMs, 95), 2)} |${format(percentile(m.latenciesMs, 99), 2)} |${String(m.refused).padStart(8)} |${String(m.failed).padStart(7)}`;
const cpuRow = (name: string, { node, client, postgres }: CpuTimes) =>
  `${name.padEnd(26)} |${format(node, 3)} |${format(client, 3)} |${format(postgres, 3)} |${format(node + client + postgres, 3)}`;

/** How an API process's group commit met other processes' so far, as it reports on SIGUSR2 (services/server). */
interface BatchCounts {
  batches: number;
  read: number;
  conflicted: number;
  locked: number;
}

/** Asks the API process for its group commit's counts (SIGUSR2) and reads the line it prints, 5 s at most. */
async function batchCountsOf(child: ChildProcess, output: () => string): Promise<BatchCounts> {
  const asked = Date.now();
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 50) {
    const lines = output().match(/^ledger group commit: .*$/gm) ?? [];
    const counts = lines
      .map((line) => JSON.parse(line.slice('ledger group commit: '.length)) as BatchCounts & { at: number })
      .findLast((each) => each.at >= asked);
    if (counts) return counts;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the API process did not report its batches within 5 s:\n${output()}`);
}

const batchesSince = (before: BatchCounts, after: BatchCounts): BatchCounts => ({
  batches: after.batches - before.batches,
  read: after.read - before.read,
  conflicted: after.conflicted - before.conflicted,
  locked: after.locked - before.locked,
});

/** The two-process run: both processes' rate and latencies, and what each transfer cost where. */
interface TwoProcesses {
  measured: Measurement;
  /** CPU per transfer of each API process (over the calls it served) and of Postgres (over all of them). */
  cpuMs: { first: number; second: number; postgres: number };
  /** Both processes' batches during the measurement, added up. */
  batches: BatchCounts;
}

/**
 * The same scenario against two API processes (the one already up and a
 * second on its own port, the bench spreading its connections over both)
 * with the workers in a process of their own, releasing the holds.
 */
async function acrossTwoProcesses(
  databaseUrl: string,
  db: Kysely<Database>,
  first: { port: number; child: ChildProcess; output: () => string },
  users: readonly User[],
  /** Where the new processes go as they start, for the caller to stop whatever happens here. */
  started: ChildProcess[],
): Promise<TwoProcesses> {
  const secondPort = await freePort();
  const second = startServer(databaseUrl, secondPort);
  const worker = startWorker(databaseUrl);
  started.push(second.child, worker.child);
  await waitForHealth(secondPort, second.child, second.output);
  // The single-process runs had no workers: a job their transfers left due would be done during the
  // measurement, and counted against the API processes.
  const drained = await drainDueJobs(db, worker.child, worker.output);
  console.warn(
    `the worker process did the ${drained.jobs} jobs the single-process runs left due in ${drained.seconds.toFixed(1)} s`,
  );
  const done = new Map<number, number>();
  const cpuOf = (child: ChildProcess) => processCpu(child.pid ?? Number.NaN)?.cpuMs ?? Number.NaN;
  // The CPU per call is read from the processes apart below; the side's own counts stay empty.
  const side: Side = {
    operation: httpSendFund([first.port, secondPort], users, done),
    nodeCpuMs: () => 0,
    clientCpuMs: () => 0,
  };
  console.warn(`send-fund at ${CONNECTIONS} connections spread over two API processes, a worker process beside them`);
  await measure(db, CONNECTIONS, WARM_UP_SECONDS, side);
  done.clear();
  const servers = [first, second];
  const countsBefore = await Promise.all(servers.map((server) => batchCountsOf(server.child, server.output)));
  const cpuBefore = servers.map((server) => cpuOf(server.child));
  const measured = await measure(db, CONNECTIONS, SECONDS, side);
  const cpuAfter = servers.map((server) => cpuOf(server.child));
  const countsAfter = await Promise.all(servers.map((server) => batchCountsOf(server.child, server.output)));
  if (worker.child.exitCode !== null) throw new Error(`the worker exited:\n${worker.output()}`);
  console.warn(`jobs due and not done at the end: ${await dueJobs(db)} (the worker keeping up, or not)`);
  const served = [done.get(first.port) ?? 0, done.get(secondPort) ?? 0];
  const perCall = (index: number) =>
    ((cpuAfter[index] ?? Number.NaN) - (cpuBefore[index] ?? Number.NaN)) / Math.max(1, served[index] ?? 0);
  const [one, two] = servers.map((_, index) =>
    batchesSince(countsBefore[index] as BatchCounts, countsAfter[index] as BatchCounts),
  ) as [BatchCounts, BatchCounts];
  return {
    measured,
    cpuMs: { first: perCall(0), second: perCall(1), postgres: measured.cpuMsEach.postgres },
    batches: {
      batches: one.batches + two.batches,
      read: one.read + two.read,
      conflicted: one.conflicted + two.conflicted,
      locked: one.locked + two.locked,
    },
  };
}

/** pg-boss jobs that are due and not done: waiting, retrying or running. */
async function dueJobs(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    SELECT count(*)::text AS count FROM pgboss.job
    WHERE state IN ('created', 'retry', 'active') AND start_after <= now()
  `.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** Waits, 5 minutes at most, until the worker has done every job that is due. */
async function drainDueJobs(
  db: Kysely<Database>,
  worker: ChildProcess,
  output: () => string,
): Promise<{ jobs: number; seconds: number }> {
  const started = performance.now();
  const jobs = await dueJobs(db);
  for (let left = jobs; left > 0; left = await dueJobs(db)) {
    if (worker.exitCode !== null) throw new Error(`the worker exited:\n${output()}`);
    if (performance.now() - started > 300_000) throw new Error(`the worker left ${left} due jobs after 5 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { jobs, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(ROOT, '.data/bench') },
    createLogger(config),
  );
  const scratch = await createScratchDatabase(server.url);
  const handle = connectDatabase(scratch.url, { preparedStatements: true });
  const port = await freePort();
  const api = startServer(scratch.url, port);
  const memory = { peakSampledMb: 0 };
  let closeQueue = () => Promise.resolve();
  const stopFollowing = await followWalletChanges(scratch.url, handle.db);
  /** The second API process and the worker process of the two-process run. */
  const others: ChildProcess[] = [];
  const sampler = setInterval(() => {
    if (api.child.pid !== undefined && api.child.exitCode === null)
      memory.peakSampledMb = Math.max(memory.peakSampledMb, serverMemoryMb(api.child.pid).rss);
  }, 100);
  try {
    await waitForHealth(port, api.child, api.output);
    const started = performance.now();
    const users = await forEachConcurrently(USERS, SIGN_UP_CONCURRENCY, (index) => signUp(port, index));
    const purchased = await fundAll(handle.db, users);
    console.warn(
      `${USERS} users signed up over HTTP and funded in ${((performance.now() - started) / 1000).toFixed(1)} s; server log level ${LOG_LEVEL}, Idempotency-Key ${IDEMPOTENCY_KEYS ? 'on every request' : 'off'}`,
    );
    if (api.child.pid !== undefined) {
      const afterSignUps = serverMemoryMb(api.child.pid);
      console.warn(
        `server resident memory after the sign-ups: ${afterSignUps.rss.toFixed(1)} MB, peak so far ${afterSignUps.peak.toFixed(1)} MB (password hashing)`,
      );
    }
    if (SERVE) {
      await serveForK6(port, users);
      return;
    }

    const overHttp = httpSendFund([port], users);
    // The same ledger work as the API's: each transfer enqueues its hold's release job in its commit.
    const queue = await openJobQueue(scratch.url, createLogger({ LOG_LEVEL: 'silent' }));
    closeQueue = queue.close;
    const inProcess = ledgerSendFund(handle.db, users, { holdHours: 24, jobs: queue.jobs });
    console.warn(
      `send-fund at ${CONNECTIONS} connections over loopback HTTP vs the same transfers through the ledger in process, ${SECONDS} s each after ${WARM_UP_SECONDS} s warm-up`,
    );
    const serverCpuMs = () => processCpu(api.child.pid ?? Number.NaN)?.cpuMs ?? Number.NaN;
    const viaServer: Side = { operation: overHttp, nodeCpuMs: serverCpuMs, clientCpuMs: ownCpuMs };
    const inThisProcess: Side = { operation: inProcess, nodeCpuMs: ownCpuMs, clientCpuMs: () => 0 };
    await measure(handle.db, CONNECTIONS, WARM_UP_SECONDS, viaServer);
    await measure(handle.db, CONNECTIONS, WARM_UP_SECONDS, inThisProcess);
    const httpParts = [await measure(handle.db, CONNECTIONS, SECONDS / 2, viaServer)];
    const ledgerParts = [
      await measure(handle.db, CONNECTIONS, SECONDS / 2, inThisProcess),
      await measure(handle.db, CONNECTIONS, SECONDS / 2, inThisProcess),
    ];
    httpParts.push(await measure(handle.db, CONNECTIONS, SECONDS / 2, viaServer));
    const [viaHttp, viaLedger] = [combine(httpParts), combine(ledgerParts)];
    const serverMemory =
      api.child.pid === undefined ? { rss: Number.NaN, peak: Number.NaN } : serverMemoryMb(api.child.pid);

    console.warn('');
    console.warn('send-fund                  | calls/s   | p50 ms    | p95 ms    | p99 ms    | refused | failed');
    console.warn(row(`HTTP, ${CONNECTIONS} connections`, viaHttp));
    console.warn(row(`ledger in process, ${CONNECTIONS}`, viaLedger));
    console.warn('');
    console.warn('CPU ms per transfer        | node      | client    | postgres  | all');
    console.warn(cpuRow('HTTP (node: the server)', viaHttp.cpuMsEach));
    console.warn(cpuRow('ledger in process', viaLedger.cpuMsEach));
    console.warn('');
    const total = await conservedTotal(handle.db);
    console.warn(
      `money conserved: CON wallets hold ${total}, purchases bought ${purchased}: ${total === purchased ? 'yes' : 'NO'}`,
    );
    const peakMb = Math.max(serverMemory.peak, memory.peakSampledMb);
    const ratio = viaHttp.perSecond / viaLedger.perSecond;
    const p99 = percentile(viaHttp.latenciesMs, 99);
    console.warn(
      `server process peak resident memory: ${serverMemory.peak.toFixed(1)} MB (VmHWM), ${memory.peakSampledMb.toFixed(1)} MB sampled every 100 ms`,
    );
    const checks = [
      [`HTTP/in-process ${(ratio * 100).toFixed(1)}% (target >= ${TARGET.ratio * 100}%)`, ratio >= TARGET.ratio],
      [`HTTP p99 ${p99.toFixed(1)} ms (target < ${TARGET.p99Ms} ms)`, p99 < TARGET.p99Ms],
      [`server peak ${peakMb.toFixed(1)} MB (target < ${TARGET.serverMb} MB)`, peakMb < TARGET.serverMb],
      [`no failed requests (${viaHttp.failed})`, viaHttp.failed === 0],
    ] as const;
    for (const [text, met] of checks) console.warn(`${met ? 'met    ' : 'NOT met'}  ${text}`);
    if (total !== purchased || viaHttp.failed > 0) process.exitCode = 1;
    if (OPEN_LOOP_SECONDS > 0) {
      console.warn('');
      for (const share of [0.5, 0.8]) {
        const rate = viaHttp.perSecond * share;
        const result = await runOpenLoop({
          rate,
          seconds: OPEN_LOOP_SECONDS,
          send: async () => {
            if ((await overHttp()) === 'failed') throw new Error('failed');
          },
        });
        console.warn(openLoopLine(share, result, rate));
        // With BENCH_TRACE, each request's schedule and latency, to lay beside the GC logs and Postgres's checkpoints.
        if (process.env.BENCH_TRACE)
          writeFileSync(
            path.join(process.env.BENCH_TRACE, `open-loop-${String(share * 100)}.json`),
            JSON.stringify({ startedAt: result.startedAt, rate, timeline: result.timeline }),
          );
        if (result.errors > 0) process.exitCode = 1;
      }
    }
    if (TWO_PROCESSES) {
      const two = await acrossTwoProcesses(scratch.url, handle.db, { port, ...api }, users, others);
      const spread = two.measured;
      const share = (count: number) => `${((count / Math.max(1, two.batches.batches)) * 100).toFixed(1)}%`;
      console.warn('');
      console.warn('send-fund                  | calls/s   | p50 ms    | p95 ms    | p99 ms    | refused | failed');
      console.warn(row(`HTTP, 1 API process`, viaHttp));
      console.warn(row(`HTTP, 2 API + 1 worker`, spread));
      console.warn(`two processes / one: ${((spread.perSecond / viaHttp.perSecond) * 100).toFixed(1)}%`);
      console.warn(
        `CPU ms per transfer, two API processes: process 1 ${two.cpuMs.first.toFixed(3)}, process 2 ${two.cpuMs.second.toFixed(3)}, ` +
          `postgres ${two.cpuMs.postgres.toFixed(3)} (one process: server ${viaHttp.cpuMsEach.node.toFixed(3)}, postgres ${viaHttp.cpuMsEach.postgres.toFixed(3)})`,
      );
      console.warn(
        `batches that conflicted: ${share(two.batches.conflicted)} (${two.batches.conflicted} of ${two.batches.batches}); ` +
          `decided under lock: ${share(two.batches.locked)}; read wallets first: ${share(two.batches.read)}`,
      );
      if (spread.failed > 0 || (await conservedTotal(handle.db)) !== purchased) process.exitCode = 1;
    }
  } finally {
    clearInterval(sampler);
    agent.destroy();
    for (const child of [api.child, ...others]) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
    await closeQueue();
    await stopFollowing();
    await handle.close();
    await scratch.drop();
    await server.stop();
  }
}

// ---------------------------------------------------------------------------
// The read-heavy form (BENCH_READS=1)

/** Of the read-heavy form's calls, the share that are list reads; the rest are sends. */
const READ_SHARE = 0.9;
/** Transfers per user made before the run, so that lists have pages to read. */
const HISTORY_PER_USER = 20;
const READ_USERS = Number(process.env.BENCH_USERS ?? 100);
const READ_MAX_LAG_MS = Number(process.env.DATABASE_READ_MAX_LAG_MS ?? 1_000);

interface MixMeasurement {
  readsPerSecond: number;
  sendsPerSecond: number;
  readLatenciesMs: number[];
  failed: number;
  /** CPU seconds the bench database's backends spent, on the primary and on the standby. */
  primaryCpuS: number;
  standbyCpuS: number;
}

/** One call of the mix: a page of the caller's transactions or ledger entries, or now and then a send. */
function readMix(port: number, users: readonly User[]): () => Promise<{ read: boolean; ok: boolean }> {
  return async () => {
    const [from, to] = pickPair(users);
    const headers = { cookie: from.cookie, 'x-csrf-token': from.csrfToken };
    if (Math.random() >= READ_SHARE) {
      const answer = await request(port, 'POST', '/api/account/send-fund', headers, {
        guser_id: to.guserId,
        amount: randomAmount(),
      });
      return { read: false, ok: answer.status === 200 || answer.status === 422 };
    }
    const route = Math.random() < 0.5 ? '/api/account/transactions' : '/api/account/ledger';
    const answer = await request(port, 'POST', route, headers, { limit: 20 });
    return { read: true, ok: answer.status === 200 };
  };
}

async function measureMix(
  databases: { primary: Kysely<Database>; standby: Kysely<Database> },
  seconds: number,
  call: () => Promise<{ read: boolean; ok: boolean }>,
): Promise<MixMeasurement> {
  const backends = async () => ({
    primary: postgresCpuByPid(await backendsOf(databases.primary)),
    standby: postgresCpuByPid(await backendsOf(databases.standby)),
  });
  const before = await backends();
  const readLatenciesMs: number[] = [];
  let sends = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const at = performance.now();
        const { read, ok } = await call();
        if (!ok) failed++;
        else if (read) readLatenciesMs.push(performance.now() - at);
        else sends++;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const after = await backends();
  return {
    readsPerSecond: readLatenciesMs.length / elapsedS,
    sendsPerSecond: sends / elapsedS,
    readLatenciesMs: readLatenciesMs.sort((a, b) => a - b),
    failed,
    primaryCpuS: postgresCpuSpent(before.primary, after.primary) / 1000,
    standbyCpuS: postgresCpuSpent(before.standby, after.standby) / 1000,
  };
}

const combineMix = (parts: readonly MixMeasurement[]): MixMeasurement => {
  const mean = (pick: (part: MixMeasurement) => number) =>
    parts.reduce((sum, part) => sum + pick(part), 0) / parts.length;
  const sum = (pick: (part: MixMeasurement) => number) => parts.reduce((total, part) => total + pick(part), 0);
  return {
    readsPerSecond: mean((part) => part.readsPerSecond),
    sendsPerSecond: mean((part) => part.sendsPerSecond),
    readLatenciesMs: parts.flatMap((part) => part.readLatenciesMs).sort((a, b) => a - b),
    failed: sum((part) => part.failed),
    primaryCpuS: sum((part) => part.primaryCpuS),
    standbyCpuS: sum((part) => part.standbyCpuS),
  };
};

/**
 * The standby's lag as the API's router computes it (lagMs of @peeks/db),
 * sampled every 100 ms while `on()` says so: the primary's WAL insert
 * position and the standby's replay position.
 */
function sampleLag(
  databases: { primary: Kysely<Database>; standby: Kysely<Database> },
  on: () => boolean,
): { seen: number[]; stop: () => void } {
  const primary: { at: number; lsn: bigint }[] = [];
  const seen: number[] = [];
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !on()) return;
    busy = true;
    const at = performance.now();
    void Promise.all([
      sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(databases.primary),
      sql<{ lsn: string | null }>`SELECT pg_last_wal_replay_lsn()::text AS lsn`.execute(databases.standby),
    ])
      .then(([written, replayed]) => {
        primary.push({ at, lsn: parseLsn(written.rows[0]?.lsn ?? '0/0') });
        if (primary.length > 200) primary.shift();
        const replay = replayed.rows[0]?.lsn ?? null;
        seen.push(lagMs(primary, { at: performance.now(), replayLsn: replay === null ? null : parseLsn(replay) }));
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, 100);
  return {
    seen,
    stop: () => {
      clearInterval(timer);
    },
  };
}

/** The same server's URL for another database (multi-host URLs included, which new URL() cannot take). */
function onDatabaseOf(serverUrl: string, databaseUrl: string): string {
  const database = /^[a-z]+:\/\/[^/?#]*(\/[^?#]*)/.exec(databaseUrl)?.[1] ?? '/postgres';
  return serverUrl.replace(/^([a-z]+:\/\/[^/?#]*)(\/[^?#]*)?/, `$1${database}`);
}

const mixRow = (name: string, m: MixMeasurement) =>
  `${name.padEnd(26)} |${format(m.readsPerSecond)} |${format(percentile(m.readLatenciesMs, 50), 2)} |${format(percentile(m.readLatenciesMs, 99), 2)} |${format(m.sendsPerSecond)} |${String(m.failed).padStart(7)} |${format(m.primaryCpuS, 1)} |${format(m.standbyCpuS, 1)}`;

/**
 * BENCH_READS=1: the read-heavy form. Two API processes on one database:
 * one reads everything from the primary (no DATABASE_READ_URL), the other
 * sends lag-tolerant reads to a streaming standby. BENCH_CONNECTIONS
 * connections make calls of which 90% read a page of the caller's
 * transactions or ledger entries and 10% send funds (so callers keep
 * writing, and read-your-writes keeps some of their reads on the primary).
 * The two processes alternate in halves of BENCH_SECONDS. The standby is
 * BENCH_READ_URL's (DATABASE_URL then names its primary: a db:cluster
 * formation's URLs, for instance), or else a scratch primary and a
 * streaming standby of it started here with PostgreSQL's own tools.
 */
async function readHeavy(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  let primaryUrl: string;
  let readUrl: string;
  const given = process.env.BENCH_READ_URL;
  if (given === undefined || given === '') {
    const primary = await startScratchServer();
    stops.unshift(primary.stop);
    const standby = await startScratchStandby(primary);
    stops.unshift(standby.stop);
    primaryUrl = primary.url;
    readUrl = `${standby.url}?target_session_attrs=standby`;
  } else {
    if (process.env.DATABASE_URL === undefined) throw new Error('BENCH_READ_URL needs DATABASE_URL, its primary');
    primaryUrl = process.env.DATABASE_URL;
    readUrl = given;
  }
  const scratch = await createScratchDatabase(primaryUrl);
  const benchReadUrl = onDatabaseOf(readUrl, scratch.url);
  const primary = connectDatabase(scratch.url, { preparedStatements: true });
  const children: ChildProcess[] = [];
  let standby: ReturnType<typeof connectDatabase> | null = null;
  try {
    const plainPort = await freePort();
    const plain = startServer(scratch.url, plainPort);
    children.push(plain.child);
    await waitForHealth(plainPort, plain.child, plain.output);
    const replicaPort = await freePort();
    const replicated = startServer(scratch.url, replicaPort, {
      DATABASE_READ_URL: benchReadUrl,
      DATABASE_READ_MAX_LAG_MS: String(READ_MAX_LAG_MS),
    });
    children.push(replicated.child);
    await waitForHealth(replicaPort, replicated.child, replicated.output);
    standby = connectDatabase(benchReadUrl, { max: 2 });
    const databases = { primary: primary.db, standby: standby.db };

    const started = performance.now();
    const users = await forEachConcurrently(READ_USERS, SIGN_UP_CONCURRENCY, (index) => signUp(plainPort, index));
    await fundAll(primary.db, users);
    const history = ledgerSendFund(primary.db, users, { holdHours: 24 });
    await forEachConcurrently(READ_USERS * HISTORY_PER_USER, 16, () => history());
    console.warn(
      `${READ_USERS} users signed up and given ${HISTORY_PER_USER} transfers each in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    let replicaPhase = false;
    const lag = sampleLag(databases, () => replicaPhase);
    const run = async (port: number, seconds: number, withReplica: boolean) => {
      replicaPhase = withReplica;
      try {
        return await measureMix(databases, seconds, readMix(port, users));
      } finally {
        replicaPhase = false;
      }
    };
    console.warn(
      `${READ_SHARE * 100}% list reads, ${100 - READ_SHARE * 100}% sends at ${CONNECTIONS} connections; each side ${SECONDS} s after ${WARM_UP_SECONDS} s warm-up; lag bound ${READ_MAX_LAG_MS} ms`,
    );
    await run(plainPort, WARM_UP_SECONDS, false);
    await run(replicaPort, WARM_UP_SECONDS, true);
    lag.seen.length = 0;
    const plainParts = [await run(plainPort, SECONDS / 2, false)];
    const replicaParts = [await run(replicaPort, SECONDS / 2, true), await run(replicaPort, SECONDS / 2, true)];
    plainParts.push(await run(plainPort, SECONDS / 2, false));
    lag.stop();
    const [withoutReplica, withReplica] = [combineMix(plainParts), combineMix(replicaParts)];
    const seen = lag.seen.sort((a, b) => a - b);

    console.warn('');
    console.warn(
      'read-heavy                 | reads/s   | read p50  | read p99  | sends/s   | failed | pg CPU s primary | standby',
    );
    console.warn(mixRow('primary only', withoutReplica));
    console.warn(mixRow('DATABASE_READ_URL standby', withReplica));
    console.warn(
      `with / without the standby: ${((withReplica.readsPerSecond / withoutReplica.readsPerSecond) * 100).toFixed(1)}% of the reads per second`,
    );
    console.warn(
      `standby lag seen while reading from it (${seen.length} samples): p50 ${percentile(seen, 50).toFixed(0)} ms, p99 ${percentile(seen, 99).toFixed(0)} ms, max ${(seen.at(-1) ?? Number.NaN).toFixed(0)} ms; over the bound: ${seen.filter((each) => each > READ_MAX_LAG_MS).length}`,
    );
    if (withoutReplica.failed + withReplica.failed > 0) process.exitCode = 1;
  } finally {
    agent.destroy();
    for (const child of children) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
    await standby?.close();
    await primary.close();
    await scratch.drop();
    for (const stop of stops) await stop();
  }
}

await (process.env.BENCH_READS === '1' ? readHeavy() : main());
