import { type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoBusiness } from '@peeks/api';
import {
  connectDatabase,
  destroyFormation,
  killNode,
  primaryNode,
  recreateNode,
  restartNode,
  startEmbeddedPostgres,
  startFormation,
  switchover,
  waitForSettled,
  type DatabaseServer,
  type Formation,
  type FormationOptions,
} from '@peeks/db';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { startProductProcess } from './bench-kit.ts';

/**
 * The product as a small deployment for the chaos and soak runs: a
 * PostgreSQL of its own (embedded, so a run can restart it), API and worker
 * processes started as `npm start` and `npm run worker` start them and
 * started again should one exit, and HTTP clients that keep their cookies
 * and CSRF token as the web app does. Everything listens on loopback.
 */
export const PASSWORD = 'Load1234';
const log = createLogger({ LOG_LEVEL: process.env.LOAD_LOG_LEVEL === 'debug' ? 'debug' : 'silent' });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

// ---------------------------------------------------------------------------
// HTTP with a cookie jar per user

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string[];
}

export function request(port: number, method: string, route: string, headers: Record<string, string>, body?: unknown) {
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

export class Client {
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

export interface Member {
  name: string;
  kind: 'api' | 'worker';
  port: number;
  child: ReturnType<typeof startProductProcess> | null;
  paused: boolean;
  /** Exits the harness did not cause. */
  crashes: number;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How long a lost node is given to rejoin by itself (it took 5–20 s here), and then to be created afresh. */
const REJOIN_MS = 120_000;
const RECREATE_MS = 300_000;

export class Deployment {
  readonly members: Member[] = [];
  database!: DatabaseServer;
  databaseUrl = '';
  databasePort = 0;
  dataDir = '';
  databaseDown = false;
  /** Set by stopAll: a process that exits now is not started again. */
  stopping = false;

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

  /** Set by startFormation: the run is on a pg_auto_failover formation instead of an embedded server. */
  formation: { options: FormationOptions; started: Formation } | null = null;

  /** A monitor, a primary and a synchronous secondary on loopback ports from `basePort` (see npm run db:cluster). */
  async startFormation(basePort: number): Promise<void> {
    this.dataDir = await mkdtemp(path.join(tmpdir(), 'peeks-cluster-'));
    await chmod(this.dataDir, 0o755);
    const options: FormationOptions = { dir: path.join(this.dataDir, 'cluster'), basePort };
    const started = await startFormation(options);
    this.formation = { options, started };
    this.database = { url: started.url, stop: () => destroyFormation(options) };
    this.databaseUrl = started.url;
  }

  /**
   * Runs `fault` on the formation while a probe writes (txid_current() on a
   * multi-host connection, as the product connects) every 100 ms, and gives
   * how long writes were unavailable: the longest time between two writes
   * that succeeded, whether the ones between failed or were held (a
   * switchover holds commits rather than refusing them).
   */
  async writeGapDuring(fault: () => Promise<void>): Promise<number> {
    const handle = connectDatabase(this.databaseUrl, { max: 1, applicationName: 'peeks-chaos-probe' });
    let lastWrite = Date.now();
    let gap = 0;
    const faultState = { done: false };
    const probing = (async () => {
      const deadline = Date.now() + 300_000;
      let afterFault = 0;
      // A few writes after the fault, so a gap that ends only then is seen.
      while (Date.now() < deadline && afterFault < 5) {
        if (faultState.done) afterFault++;
        const wrote = await sql`SELECT txid_current()`.execute(handle.db).then(
          () => true,
          () => false,
        );
        if (wrote) {
          gap = Math.max(gap, Date.now() - lastWrite);
          lastWrite = Date.now();
        }
        await sleep(100);
      }
    })();
    try {
      await fault();
    } finally {
      faultState.done = true;
      await probing;
      await handle.close();
    }
    return gap;
  }

  /** A planned switchover: the monitor moves the primary to the secondary. */
  async switchover(): Promise<void> {
    if (!this.formation) throw new Error('no formation');
    await switchover(this.formation.options);
  }

  /** Lost nodes that did not rejoin and were created afresh from the primary, with why. */
  readonly recreated: string[] = [];

  /**
   * The loss of the primary whole: keeper and postmaster SIGKILLed, the
   * monitor promotes the secondary; once writes are back, the lost node's
   * keeper starts again and it rejoins as secondary (pg_rewind, then
   * streaming). One that has not rejoined within REJOIN_MS is dropped and
   * created afresh from the primary, as an operator would, and counted.
   */
  async losePrimary(): Promise<void> {
    if (!this.formation) throw new Error('no formation');
    const { options, started } = this.formation;
    const lost = primaryNode(started, options.dir);
    if (!lost) throw new Error('the formation has no primary');
    await killNode(lost);
    const promoted = () => {
      try {
        const primary = primaryNode(started, options.dir);
        return primary !== undefined && primary.name !== lost.name;
      } catch {
        // The monitor, busy on a loaded machine, did not answer this time.
        return false;
      }
    };
    const deadline = Date.now() + 120_000;
    while (!promoted()) {
      if (Date.now() > deadline) throw new Error('no standby was promoted within 120 s');
      await sleep(250);
    }
    await restartNode(options, lost);
    try {
      await waitForSettled(options, REJOIN_MS);
    } catch (error) {
      const why = (error as Error).message;
      process.stderr.write(
        `formation: ${lost.name} did not rejoin within ${REJOIN_MS / 1000} s; dropping it and creating it afresh from the primary (${why})\n`,
      );
      this.recreated.push(`${lost.name}: ${why.split('\n')[0] ?? why}`);
      await recreateNode(options, lost);
      await waitForSettled(options, RECREATE_MS);
    }
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
        process.stderr.write(`${member.name} exited by itself:\n${child.output()}\n`);
        // Supervised, as a deployment's process manager would: started again.
        setTimeout(() => {
          if (member.child === null && !this.stopping) this.launch(member);
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
    this.stopping = true;
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

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function must(label: string, attempt: () => Promise<Answer>): Promise<Answer> {
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

export async function signUp(
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

export async function storedCard(port: number, client: Client): Promise<number> {
  const year = String(new Date().getUTCFullYear() + 1);
  const token = await must('tokenize', () =>
    request(
      port,
      'POST',
      '/api/sandbox/tokenize',
      // The tokenizer is limited per address: each user tokenizes from its own.
      { 'x-forwarded-for': client.address },
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
