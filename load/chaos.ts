import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectDatabase, startEmbeddedPostgres, type DatabaseServer } from '@peeks/db';
import { demoBusiness } from '@peeks/api';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { startProductProcess } from './bench-kit.ts';

/**
 * `npm run chaos`: the product as a deployment of two API processes and two
 * worker processes on a PostgreSQL of its own, under a load of sends,
 * payments to a merchant, card purchases and e-mail-transfer deposits
 * (cleared by an operator), every request with an Idempotency-Key and
 * retried with it until answered. Meanwhile it SIGKILLs API and worker
 * processes, pauses a worker with SIGSTOP past its heartbeat, and restarts
 * PostgreSQL, fast and immediate. Then, with everything back and the jobs
 * drained, it checks that nothing was lost or done twice:
 *
 * - every answered request's transaction is in the ledger exactly once, and
 *   every answer for one key named the same transaction;
 * - every key the server stored as done names a transaction in the ledger;
 * - every approved card charge bought coins exactly once (none refunded);
 * - `ledger:verify` is clean;
 * - every webhook delivery reached the receiver at least once, under its
 *   one `webhook-id`, and every payment to the merchant has its delivery;
 * - no job is left waiting or failed, and no ended hold is still held.
 *
 * It prints one summary line and exits 1 on any loss. CHAOS_SECONDS sets the
 * length of the load (default 60), CHAOS_USERS the users (24),
 * CHAOS_CONNECTIONS the concurrent requests (12), CHAOS_EVERY_MS the mean
 * time between two faults (5000). Everything stays on loopback.
 */
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 60);
const USERS = Number(process.env.CHAOS_USERS ?? 24);
const CONNECTIONS = Number(process.env.CHAOS_CONNECTIONS ?? 12);
const EVERY_MS = Number(process.env.CHAOS_EVERY_MS ?? 5_000);
/** How long a request is retried with its key before it counts as unanswered. */
const RETRY_FOR_MS = 60_000;
/** How long the checks wait for jobs and deliveries to drain after the load. */
const DRAIN_MS = 180_000;
const PASSWORD = 'Chaos1234';
const ROOT = path.resolve(import.meta.dirname, '..');
const log = createLogger({ LOG_LEVEL: process.env.CHAOS_LOG_LEVEL === 'debug' ? 'debug' : 'silent' });
/** A line on stderr of what the run is doing, for a run that hangs or fails. */
const say = (line: string) => process.stderr.write(`chaos: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

// ---------------------------------------------------------------------------
// HTTP with a cookie jar per user

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string[];
}

function request(port: number, method: string, route: string, headers: Record<string, string>, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        timeout: 30_000,
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
          let parsed: Record<string, unknown> = {};
          try {
            parsed = text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            // A body cut short by a killed process: the status says enough.
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, setCookie: response.headers['set-cookie'] ?? [] });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

class Client {
  readonly cookies = new Map<string, string>();
  csrfToken = '';
  readonly address: string;
  constructor(address: string) {
    this.address = address;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { 'x-forwarded-for': this.address, cookie, 'x-csrf-token': this.csrfToken, ...extra };
  }

  take(answer: Answer): Answer {
    for (const line of answer.setCookie) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    if (typeof answer.body.csrfToken === 'string') this.csrfToken = answer.body.csrfToken;
    return answer;
  }

  async call(port: number, method: string, route: string, body?: unknown, extra?: Record<string, string>) {
    return this.take(await request(port, method, route, this.headers(extra), body));
  }
}

// ---------------------------------------------------------------------------
// The deployment: PostgreSQL, two API processes, two worker processes

interface Member {
  name: string;
  kind: 'api' | 'worker';
  port: number;
  child: ReturnType<typeof startProductProcess> | null;
  paused: boolean;
  /** Exits the harness did not cause. */
  crashes: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

class Deployment {
  readonly members: Member[] = [];
  database!: DatabaseServer;
  databaseUrl = '';
  databasePort = 0;
  dataDir = '';
  databaseDown = false;

  private readonly receiverPort: number;
  constructor(receiverPort: number) {
    this.receiverPort = receiverPort;
  }

  env(member: Member): NodeJS.ProcessEnv {
    return {
      NODE_ENV: 'development',
      DATABASE_URL: this.databaseUrl,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'off',
      HOLD_HOURS: '0',
      TRUST_PROXY_HOPS: '1',
      WEBHOOK_ALLOW_PRIVATE: '1',
      JOB_SUPERVISE_SECONDS: '1',
      ...(member.kind === 'api' ? { PORT: String(member.port), HOST: '127.0.0.1', WORKERS: 'off' } : {}),
    };
  }

  async startDatabase(): Promise<void> {
    this.dataDir = await mkdtemp(path.join(tmpdir(), 'peeks-chaos-'));
    // Run as root, the server runs as a `postgres` user, which must reach the directory.
    await chmod(this.dataDir, 0o755);
    this.database = await startEmbeddedPostgres({ dataDir: this.dataDir, database: 'peeks', log });
    this.databaseUrl = this.database.url;
    this.databasePort = Number(new URL(this.databaseUrl).port);
  }

  launch(member: Member): void {
    const script = member.kind === 'api' ? 'services/server/src/main.ts' : 'services/worker/src/main.ts';
    const child = startProductProcess(script, this.env(member));
    member.child = child;
    member.paused = false;
    child.child.once('exit', () => {
      if (member.child === child) {
        member.crashes++;
        member.child = null;
        process.stderr.write(`chaos: ${member.name} exited by itself:\n${child.output()}\n`);
        // Supervised, as a deployment's process manager would: started again.
        setTimeout(() => {
          if (member.child === null && !stopped) this.launch(member);
        }, 1_000);
      }
    });
  }

  async add(kind: 'api' | 'worker', name: string): Promise<Member> {
    const member: Member = {
      name,
      kind,
      port: kind === 'api' ? await freePort() : 0,
      child: null,
      paused: false,
      crashes: 0,
    };
    this.members.push(member);
    this.launch(member);
    if (kind === 'api') await this.healthy(member);
    return member;
  }

  async healthy(member: Member, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        if ((await request(member.port, 'GET', '/api/health', {})).status === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(200);
    }
    throw new Error(`${member.name} did not answer /api/health in ${timeoutMs / 1000} s:\n${member.child?.output()}`);
  }

  /** SIGKILL, as when the machine loses power; started again a moment later. */
  async kill(member: Member): Promise<void> {
    const child = member.child;
    if (!child) return;
    member.child = null;
    if (member.paused) child.child.kill('SIGCONT');
    child.child.kill('SIGKILL');
    await exited(child.child);
    await sleep(500 + Math.random() * 1_000);
    this.launch(member);
  }

  /** SIGSTOP for longer than a job's heartbeat (10 s), then SIGCONT: its jobs were taken over meanwhile. */
  async pause(member: Member, ms: number): Promise<void> {
    const child = member.child;
    if (!child) return;
    member.paused = true;
    child.child.kill('SIGSTOP');
    await sleep(ms);
    if (member.child === child) {
      child.child.kill('SIGCONT');
      member.paused = false;
    }
  }

  /** Stops PostgreSQL (fast: pg_ctl's default; immediate: SIGQUIT to the postmaster, no checkpoint) and starts it again. */
  async restartDatabase(mode: 'fast' | 'immediate'): Promise<void> {
    this.databaseDown = true;
    if (mode === 'fast') {
      await this.database.stop();
    } else {
      const pid = await this.postmasterPid();
      process.kill(pid, 'SIGQUIT');
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && alive(pid)) await sleep(100);
      // Not the embedded server's own stop: it would wait for a postmaster that is gone already.
    }
    await sleep(1_000 + Math.random() * 2_000);
    this.database = await startEmbeddedPostgres({
      dataDir: this.dataDir,
      database: 'peeks',
      log,
      port: this.databasePort,
    });
    this.databaseDown = false;
  }

  private async postmasterPid(): Promise<number> {
    const handle = connectDatabase(this.databaseUrl, { max: 1, applicationName: 'peeks-chaos' });
    try {
      const { rows } = await sql<{ dir: string }>`SELECT current_setting('data_directory') AS dir`.execute(handle.db);
      const file = await readFile(path.join(rows[0]?.dir ?? '', 'postmaster.pid'), 'utf8');
      return Number(file.split('\n')[0]);
    } finally {
      await handle.close();
    }
  }

  apis(): Member[] {
    return this.members.filter((member) => member.kind === 'api');
  }

  async stopAll(): Promise<void> {
    for (const member of this.members) {
      const child = member.child;
      member.child = null;
      if (!child) continue;
      child.child.kill('SIGCONT');
      child.child.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.child.kill('SIGKILL');
          resolve(null);
        }, 10_000);
        if (child.child.exitCode !== null) resolve(null);
        child.child.once('exit', () => {
          clearTimeout(timer);
          resolve(null);
        });
      });
    }
    await this.database.stop().catch(() => undefined);
    await rm(this.dataDir, { recursive: true, force: true });
  }

  get receiverUrl(): string {
    return `http://127.0.0.1:${this.receiverPort}/hooks`;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let stopped = false;

// ---------------------------------------------------------------------------
// The webhook receiver: answers 2xx, counts each webhook-id

const received = new Map<string, number>();

function startReceiver(): Promise<http.Server> {
  const server = http.createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const id = incoming.headers['webhook-id'];
      if (typeof id === 'string') received.set(id, (received.get(id) ?? 0) + 1);
      answer.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

// ---------------------------------------------------------------------------
// The load: each request carries a key and is retried with it until answered

type Kind = 'send' | 'pay-merchant' | 'purchase' | 'deposit' | 'clear-deposit';

interface Sent {
  kind: Kind;
  key: string;
  /** The final answer's status; null when no answer came within RETRY_FOR_MS. */
  status: number | null;
  /** tx ids named by 2xx answers; more than one would be a key applied twice. */
  txIds: Set<string>;
  attempts: number;
}

interface User {
  client: Client;
  userId: number;
  guserId: string;
  cardId: number;
}

const sent: Sent[] = [];

/** Any live API process: a refused connection or a 5xx tries another, with the same key. */
async function keyed(deployment: Deployment, client: Client, kind: Kind, route: string, body: unknown): Promise<Sent> {
  const record: Sent = { kind, key: randomUUID(), status: null, txIds: new Set(), attempts: 0 };
  sent.push(record);
  const deadline = Date.now() + RETRY_FOR_MS;
  let backoff = 100;
  while (Date.now() < deadline) {
    const api = pick(deployment.apis());
    record.attempts++;
    try {
      const answer = await client.call(api.port, 'POST', route, body, { 'idempotency-key': record.key });
      if (answer.status < 500) {
        record.status = answer.status;
        const txId = txIdOf(answer.body);
        if (answer.status === 200 && txId) record.txIds.add(txId);
        // A 409 for a key still in flight elsewhere: the first attempt may yet finish; ask again.
        if (answer.status !== 409) return record;
      }
    } catch {
      // Connection refused or reset by a killed process: retried below.
    }
    await sleep(backoff);
    backoff = Math.min(2_000, backoff * 2);
  }
  return record;
}

function txIdOf(body: Record<string, unknown>): string | null {
  const data = body.data as Record<string, unknown> | undefined;
  const transaction = (data?.transaction ?? body.transaction) as Record<string, unknown> | undefined;
  const txId = transaction?.tx_id ?? data?.tx_id ?? body.tx_id;
  return typeof txId === 'string' ? txId : null;
}

/** Set-up calls, before the faults: retried until 2xx. */
async function must(label: string, attempt: () => Promise<Answer>): Promise<Answer> {
  for (let tries = 0; tries < 20; tries++) {
    try {
      const answer = await attempt();
      if (answer.status === 200) return answer;
      if (answer.status < 500 && answer.status !== 429)
        throw new Error(`${label} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(label)) throw error;
    }
    await sleep(500);
  }
  throw new Error(`${label} failed 20 times`);
}

let addressCount = 0;
const newAddress = () => {
  addressCount++;
  return `10.77.${(addressCount >> 8) & 255}.${addressCount & 255}`;
};

async function signUp(
  port: number,
  kind: 'personal' | 'business',
  name: string,
): Promise<Client & { body: Record<string, unknown>; username: string }> {
  const client = new Client(newAddress());
  await client.call(port, 'GET', '/api/session');
  const username = `${name}_${randomUUID().slice(0, 8)}`;
  const form: Record<string, unknown> = {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
    confirm_password: PASSWORD,
    birthday: '01-01-1990',
    country: 'US',
    termsAccepted: 1,
  };
  if (kind === 'business')
    Object.assign(form, demoBusiness, { name: 'Chaos Shop', dba: 'Chaos Shop Ltd', country: 'CA' });
  const answer = await must(`sign-up of ${username}`, () => client.call(port, 'POST', `/api/register/${kind}`, form));
  return Object.assign(client, { body: answer.body, username });
}

async function storedCard(port: number, client: Client): Promise<number> {
  const year = String(new Date().getUTCFullYear() + 1);
  const token = await must('tokenize', () =>
    request(
      port,
      'POST',
      '/api/sandbox/tokenize',
      {},
      {
        card_number: '4242424242424242',
        cvv: '123',
        expiry_month: '08',
        expiry_year: year,
      },
    ),
  );
  const billing = {
    name_first: 'Anne',
    name_last: 'Tremblay',
    address1: '100 Rideau St',
    address2: '',
    city: 'Ottawa',
    province: 'ON',
    postal_code: 'K1N 5X8',
    country: 'CA',
  };
  const answer = await must('add-pay-method', () =>
    client.call(port, 'POST', '/api/wallet/add-pay-method', {
      type: 'CC',
      billing_address: billing,
      shipping_address: Object.fromEntries(Object.entries(billing).map(([key, value]) => [`shipping_${key}`, value])),
      type_specific: {
        token: String(token.body.token),
        token_type: 'sandbox',
        cardholder_name: 'Anne Tremblay',
        card_expiry: { year, month: '08' },
      },
    }),
  );
  return (answer.body.payment_method as { payment_method_id: number }).payment_method_id;
}

async function loadLoop(deployment: Deployment, users: User[], merchant: User, operator: Client, until: number) {
  const deposits: string[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const user = pick(users);
        const roll = Math.random();
        if (roll < 0.45) {
          let to = pick(users);
          while (to === user) to = pick(users);
          await keyed(deployment, user.client, 'send', '/api/account/send-fund', {
            guser_id: to.guserId,
            amount: 1 + Math.floor(Math.random() * 300),
          });
        } else if (roll < 0.7) {
          await keyed(deployment, user.client, 'pay-merchant', '/api/account/send-fund', {
            guser_id: merchant.guserId,
            amount: 1 + Math.floor(Math.random() * 300),
          });
        } else if (roll < 0.85) {
          await keyed(deployment, user.client, 'purchase', '/api/account/purchase', {
            payment_method_id: user.cardId,
            coin_amt: (1 + Math.floor(Math.random() * 20)) * 100,
            currency: 'USD',
          });
        } else if (roll < 0.95 || deposits.length === 0) {
          const entered = await keyed(deployment, user.client, 'deposit', '/api/account/deposit-zell', {
            amount: 1 + Math.floor(Math.random() * 50),
          });
          deposits.push(...entered.txIds);
        } else {
          const txId = deposits.splice(Math.floor(Math.random() * deposits.length), 1)[0] as string;
          const entered = await keyed(deployment, operator, 'clear-deposit', '/api/operations/clear-deposit', {
            tx_id: txId,
            reference: `chaos-${txId.slice(0, 8)}`,
            currency: 'USD',
            amount_received: await depositAmount(deployment, txId),
          });
          entered.txIds.add(txId);
        }
      }
    }),
  );
}

async function depositAmount(deployment: Deployment, txId: string): Promise<number> {
  // Up to two minutes: a restart under load may keep the database away that long.
  for (let tries = 0; tries < 240; tries++) {
    const handle = connectDatabase(deployment.databaseUrl, { max: 1, applicationName: 'peeks-chaos' });
    try {
      const row = await handle.db
        .selectFrom('ledger_transactions')
        .select('amount')
        .where('tx_id', '=', txId)
        .executeTakeFirst();
      if (row) return row.amount;
    } catch {
      // The database is restarting.
    } finally {
      await handle.close();
    }
    await sleep(500);
  }
  throw new Error(`deposit ${txId} never reached the read model`);
}

// ---------------------------------------------------------------------------
// The faults

interface Faults {
  apiKills: number;
  workerKills: number;
  pauses: number;
  fastRestarts: number;
  immediateRestarts: number;
}

async function faultLoop(deployment: Deployment, until: number): Promise<Faults> {
  const faults: Faults = { apiKills: 0, workerKills: 0, pauses: 0, fastRestarts: 0, immediateRestarts: 0 };
  // Every kind once in a shuffled round before any repeats, so a short run still has each.
  const kinds = ['api', 'worker', 'pause', 'fast', 'immediate'] as const;
  let round: (typeof kinds)[number][] = [];
  while (Date.now() < until) {
    await sleep(EVERY_MS / 2 + Math.random() * EVERY_MS);
    if (Date.now() >= until) break;
    if (round.length === 0) round = [...kinds].sort(() => Math.random() - 0.5);
    const kind = round.pop() as (typeof kinds)[number];
    say(`fault: ${kind}`);
    const workers = deployment.members.filter((member) => member.kind === 'worker' && member.child && !member.paused);
    switch (kind) {
      case 'api':
        await deployment.kill(pick(deployment.apis()));
        faults.apiKills++;
        break;
      case 'worker':
        if (workers.length === 0) break;
        await deployment.kill(pick(workers));
        faults.workerKills++;
        break;
      case 'pause':
        if (workers.length === 0) break;
        // Not awaited: the load and further faults go on while it sleeps.
        void deployment.pause(pick(workers), 12_000 + Math.random() * 4_000);
        faults.pauses++;
        break;
      case 'fast':
        await deployment.restartDatabase('fast');
        faults.fastRestarts++;
        break;
      case 'immediate':
        await deployment.restartDatabase('immediate');
        faults.immediateRestarts++;
        break;
    }
  }
  return faults;
}

// ---------------------------------------------------------------------------
// The checks

async function waitForDrain(
  databaseUrl: string,
): Promise<{ jobsLeft: number; pendingDeliveries: number; heldPast: number }> {
  const handle = connectDatabase(databaseUrl, { max: 2, applicationName: 'peeks-chaos' });
  const deadline = Date.now() + DRAIN_MS;
  let state = { jobsLeft: -1, pendingDeliveries: -1, heldPast: -1 };
  try {
    while (Date.now() < deadline) {
      state = await drainState(handle.db);
      if (state.jobsLeft === 0 && state.pendingDeliveries === 0 && state.heldPast === 0) break;
      await sleep(1_000);
    }
  } finally {
    await handle.close();
  }
  return state;
}

async function drainState(db: ReturnType<typeof connectDatabase>['db']) {
  // Schedules (pg-boss's cron-made jobs) come and go; every other job must be done.
  const jobs = await sql<{ count: string }>`
    SELECT count(*)::text AS count FROM pgboss.job
    WHERE state IN ('created', 'retry', 'active', 'failed') AND singleton_key IS DISTINCT FROM '__pgboss__cron'
      AND name NOT IN (SELECT name FROM pgboss.schedule)`.execute(db);
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(db.fn.countAll<string>().as('count'))
    .where('state', '!=', 'delivered')
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('ledger_transactions')
    .select(db.fn.countAll<string>().as('count'))
    .where('hold_release_at', '<=', new Date())
    .where('hold_released_at', 'is', null)
    .where('hold_amount', '>', 0)
    .executeTakeFirstOrThrow();
  return {
    jobsLeft: Number(jobs.rows[0]?.count ?? 0),
    pendingDeliveries: Number(deliveries.count),
    heldPast: Number(held.count),
  };
}

interface Findings {
  problems: string[];
  answered: number;
  unanswered: number;
  deliveries: number;
}

async function check(deployment: Deployment, merchantOwner: string): Promise<Findings> {
  const problems: string[] = [];
  const handle = connectDatabase(deployment.databaseUrl, { max: 2, applicationName: 'peeks-chaos' });
  const { db } = handle;
  try {
    // 1. Each answered request's transaction once in the ledger; one transaction per key.
    const named = new Set<string>();
    for (const record of sent) {
      if (record.txIds.size > 1) problems.push(`key ${record.key} answered with ${record.txIds.size} transactions`);
      if (record.kind !== 'clear-deposit') for (const txId of record.txIds) named.add(txId);
    }
    const found = new Map<string, number>();
    const ids = [...named];
    for (let start = 0; start < ids.length; start += 1_000) {
      const rows = await db
        .selectFrom('ledger_transactions')
        .select(['tx_id'])
        .where('tx_id', 'in', ids.slice(start, start + 1_000))
        .execute();
      for (const row of rows) found.set(row.tx_id, (found.get(row.tx_id) ?? 0) + 1);
    }
    for (const txId of ids)
      if (found.get(txId) !== 1) problems.push(`answered ${txId} is in the ledger ${found.get(txId) ?? 0} times`);

    // 2. Keys the server completed name transactions that exist, each once across keys.
    const keys = await db
      .selectFrom('idempotency_keys')
      .select(['key', 'status_code', 'response'])
      .where('completed_at', 'is not', null)
      .where('status_code', '=', 200)
      .execute();
    const perTx = new Map<string, number>();
    for (const row of keys) {
      const txId = txIdOf(
        (typeof row.response === 'string' ? JSON.parse(row.response) : row.response) as Record<string, unknown>,
      );
      if (txId) perTx.set(txId, (perTx.get(txId) ?? 0) + 1);
    }
    const clearKeys = new Set(sent.filter((record) => record.kind === 'clear-deposit').map((record) => record.key));
    for (const row of keys)
      if (clearKeys.has(row.key)) {
        const txId = txIdOf(
          (typeof row.response === 'string' ? JSON.parse(row.response) : row.response) as Record<string, unknown>,
        );
        if (txId) perTx.delete(txId);
      }
    for (const [txId, count] of perTx) if (count > 1) problems.push(`${count} keys applied ${txId}`);

    // 3. Card charges and card-paid transactions agree one to one.
    const charges = await db
      .selectFrom('sandbox_charges')
      .select(['idempotency_key', 'refunded_at'])
      .where('status', '=', 'approved')
      .execute();
    const purchases = await db
      .selectFrom('ledger_transactions')
      .select(db.fn.countAll<string>().as('count'))
      // Every transaction a card paid for: here, the coin purchases.
      .where('payment_method_type', '=', 'CC')
      .executeTakeFirstOrThrow();
    const kept = charges.filter((charge) => charge.refunded_at === null).length;
    if (kept !== Number(purchases.count))
      problems.push(`${kept} approved charges kept, ${purchases.count} card-paid transactions in the ledger`);

    // 4. Every payment to the merchant has its delivery, and every delivery reached the receiver under its id.
    const payments = await db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payee_owner_id', '=', merchantOwner)
      .execute();
    const deliveries = await db.selectFrom('webhook_deliveries').select(['delivery_id', 'tx_id', 'state']).execute();
    const delivered = new Set(deliveries.map((delivery) => delivery.tx_id));
    for (const payment of payments)
      if (!delivered.has(payment.tx_id))
        problems.push(`payment ${payment.tx_id} to the merchant has no webhook delivery`);
    for (const delivery of deliveries) {
      if (delivery.state !== 'delivered') problems.push(`delivery ${delivery.delivery_id} is ${delivery.state}`);
      if (!received.has(delivery.delivery_id))
        problems.push(`delivery ${delivery.delivery_id} never reached the receiver`);
    }
    const known = new Set(deliveries.map((delivery) => delivery.delivery_id));
    for (const id of received.keys()) if (!known.has(id)) problems.push(`the receiver got an unknown webhook-id ${id}`);

    // 5. The ledger verifies.
    const verify = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'packages/ledger-store/src/verify-cli.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: deployment.databaseUrl, LOG_LEVEL: 'warn' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).then(
      () => null,
      (error: unknown) => {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        return `${stdout}${stderr}`.slice(-2_000);
      },
    );
    if (verify !== null) problems.push(`ledger:verify failed: ${verify}`);

    return {
      problems,
      answered: sent.filter((record) => record.status !== null).length,
      unanswered: sent.filter((record) => record.status === null).length,
      deliveries: deliveries.length,
    };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------

async function main(): Promise<number> {
  const receiver = await startReceiver();
  const deployment = new Deployment((receiver.address() as net.AddressInfo).port);
  const started = Date.now();
  try {
    await deployment.startDatabase();
    say(`PostgreSQL up at ${new URL(deployment.databaseUrl).port}`);
    // The first API process migrates alone; the others start on a migrated database.
    const first = await deployment.add('api', 'api-1');
    await Promise.all([
      deployment.add('api', 'api-2'),
      deployment.add('worker', 'worker-1'),
      deployment.add('worker', 'worker-2'),
    ]);
    const port = first.port;
    say('two API and two worker processes up');

    const merchantClient = await signUp(port, 'business', 'chaos_shop');
    const merchantUser = merchantClient.body.user as { user_id: number; guser_id: string; merchant_id: number };
    await must('create-webhook', () =>
      merchantClient.call(port, 'POST', '/api/webhook/create-webhook', {
        state: 'enabled',
        url: deployment.receiverUrl,
        events: ['purchase'],
      }),
    );
    const merchantOwner = `merchant-${merchantUser.merchant_id}`;

    const users: User[] = [];
    for (let index = 0; index < USERS; index++) {
      const client = await signUp(port, 'personal', `chaos_${index}`);
      const user = client.body.user as { user_id: number; guser_id: string };
      const cardId = await storedCard(port, client);
      users.push({ client, userId: user.user_id, guserId: user.guser_id, cardId });
      await must('first purchase', () =>
        client.call(port, 'POST', '/api/account/purchase', {
          payment_method_id: cardId,
          coin_amt: 50_00,
          currency: 'USD',
        }),
      );
    }
    const operator = await signUp(port, 'personal', 'chaos_operator');
    await promoteToOperator(deployment, operator.username);
    // The role is read at sign-in: sign in again.
    await must('operator sign-in', () =>
      operator.call(port, 'POST', '/api/login', {
        username: operator.username,
        password: PASSWORD,
      }),
    );

    say(`${users.length} users, a merchant with a webhook and an operator ready; load for ${SECONDS} s`);
    const until = Date.now() + SECONDS * 1_000;
    const [faults] = await Promise.all([
      faultLoop(deployment, until),
      loadLoop(
        deployment,
        users,
        { client: merchantClient, userId: merchantUser.user_id, guserId: merchantUser.guser_id, cardId: 0 },
        operator,
        until,
      ),
    ]);
    // Every process back and running before the checks.
    for (const member of deployment.members) if (member.paused) member.child?.child.kill('SIGCONT');
    for (const api of deployment.apis()) await deployment.healthy(api);
    say('load over; waiting for the jobs to drain');
    const drain = await waitForDrain(deployment.databaseUrl);
    const findings = await check(deployment, merchantOwner);
    if (drain.jobsLeft > 0)
      findings.problems.push(`${drain.jobsLeft} jobs left waiting or failed after ${DRAIN_MS / 1000} s`);
    if (drain.heldPast > 0) findings.problems.push(`${drain.heldPast} holds past their release time`);
    const crashes = deployment.members.reduce((sum, member) => sum + member.crashes, 0);

    const ok = findings.problems.length === 0;
    for (const problem of findings.problems.slice(0, 50)) process.stderr.write(`chaos: ${problem}\n`);
    process.stdout.write(
      `chaos: ${SECONDS} s, ${sent.length} requests (${findings.answered} answered, ${findings.unanswered} unanswered, ` +
        `${sent.reduce((sum, record) => sum + record.attempts - 1, 0)} retries); ` +
        `faults: ${faults.apiKills} API kills, ${faults.workerKills} worker kills, ${faults.pauses} worker pauses, ` +
        `${faults.fastRestarts} fast and ${faults.immediateRestarts} immediate database restarts, ${crashes} exits of their own; ` +
        `${findings.deliveries} webhook deliveries, ${received.size} ids received; ` +
        `${ok ? 'nothing lost, nothing twice: OK' : `${findings.problems.length} problems: FAILED`} ` +
        `(${Math.round((Date.now() - started) / 1000)} s in all)\n`,
    );
    return ok ? 0 : 1;
  } finally {
    stopped = true;
    await deployment.stopAll();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

async function promoteToOperator(deployment: Deployment, username: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'services/api/src/features/operations/operator-cli.ts'), username, `${username}@example.com`],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: deployment.databaseUrl, LOG_LEVEL: 'warn' } },
  );
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(
    `chaos: could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 2;
});
