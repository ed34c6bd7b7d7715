import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { buildApp } from '@peeks/api';
import { connectDatabase, migrateToLatest, openDatabaseServer } from '@peeks/db';
import { createLogger, readConfig } from '@peeks/runtime';
import { createScratchDatabase, percentile } from './bench-kit.ts';

/**
 * `npm run bench:login`: the API in this process on a loopback port, against
 * DATABASE_URL or an embedded server under .data/bench. One registered user;
 * 16 clients sign in over and over (each its own session: GET /api/session
 * once, then POST /api/login with the rotated cookie and CSRF token), beside
 * 16 clients calling the bare GET /api/health, in the same run. A login is
 * dominated by its argon2id hash (19 MiB, 2 passes) on the libuv thread
 * pool. BENCH_SECONDS sets the length of each measurement (default 10).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = 16;
const PASSWORD = 'Bench1234';

interface Measurement {
  perSecond: number;
  latenciesMs: number[];
  failures: number;
}

/** A client that keeps its session cookie and CSRF token, as the web app does. */
class Client {
  cookie = '';
  csrfToken = '';
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async send(method: 'GET' | 'POST', route: string, body?: unknown): Promise<number> {
    const response = await fetch(`${this.base}${route}`, {
      method,
      headers: {
        cookie: this.cookie,
        'x-csrf-token': this.csrfToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const cookie = response.headers.getSetCookie().find((each) => each.startsWith('peeks_session='));
    if (cookie) this.cookie = cookie.split(';')[0] ?? '';
    const answer = (await response.json()) as { csrfToken?: unknown };
    if (typeof answer.csrfToken === 'string') this.csrfToken = answer.csrfToken;
    return response.status;
  }
}

/** `clients` loops of `operation` for `seconds`, counting completions, timing each, counting non-200s. */
async function measure(
  clients: Client[],
  seconds: number,
  operation: (client: Client) => Promise<number>,
): Promise<Measurement> {
  const latenciesMs: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const before = performance.now();
        if ((await operation(client)) !== 200) failures++;
        latenciesMs.push(performance.now() - before);
      }
    }),
  );
  return {
    perSecond: latenciesMs.length / ((performance.now() - started) / 1000),
    latenciesMs: latenciesMs.sort((a, b) => a - b),
    failures,
  };
}

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(9);

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(import.meta.dirname, '../.data/bench') },
    log,
  );
  const scratch = await createScratchDatabase(server.url);
  const handle = connectDatabase(scratch.url, { max: 20 });

  try {
    await migrateToLatest(handle.db);
    // The login limit (10 a minute per address) would stop the benchmark at once; the hash is what is measured.
    const unlimited = { max: 1_000_000, timeWindow: 60_000 };
    const app = await buildApp({
      db: handle.db,
      databaseUrl: scratch.url,
      log: createLogger({ LOG_LEVEL: 'warn' }),
      insecureCookies: true,
      rateLimits: { login: unlimited, registration: unlimited },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;

    const registrar = new Client(base);
    await registrar.send('GET', '/api/session');
    const username = `bench_${randomBytes(4).toString('hex')}`;
    const registered = await registrar.send('POST', '/api/register/personal', {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      confirm_password: PASSWORD,
      birthday: '01-01-1990',
      country: 'US',
      termsAccepted: 1,
    });
    if (registered !== 200) throw new Error(`registration answered ${registered}`);

    const clients = Array.from({ length: CLIENTS }, () => new Client(base));
    for (const client of clients) await client.send('GET', '/api/session');
    const login = (client: Client) => client.send('POST', '/api/login', { username, password: PASSWORD });
    const health = (client: Client) => client.send('GET', '/api/health');

    console.warn(`login vs bare health at ${CLIENTS} concurrent clients, ${SECONDS}s each, over loopback HTTP`);
    await measure(clients, 1, login);
    await measure(clients, 1, health);
    // Alternate halves so drift in the machine's load hits both sides alike.
    const logins = [await measure(clients, SECONDS / 2, login)];
    const healths = [await measure(clients, SECONDS / 2, health), await measure(clients, SECONDS / 2, health)];
    logins.push(await measure(clients, SECONDS / 2, login));
    await app.close();

    const combine = (parts: Measurement[]): Measurement => ({
      perSecond: parts.reduce((sum, part) => sum + part.perSecond, 0) / parts.length,
      latenciesMs: parts.flatMap((part) => part.latenciesMs).sort((a, b) => a - b),
      failures: parts.reduce((sum, part) => sum + part.failures, 0),
    });
    console.warn('');
    console.warn('call              |   calls/s |    p50 ms |    p99 ms | non-200');
    for (const [name, measurement] of [
      ['POST /api/login', combine(logins)],
      ['GET /api/health', combine(healths)],
    ] as const) {
      console.warn(
        `${name.padEnd(17)} |${format(measurement.perSecond, 1)} |${format(percentile(measurement.latenciesMs, 50), 2)} |${format(percentile(measurement.latenciesMs, 99), 2)} |${String(measurement.failures).padStart(8)}`,
      );
    }
    console.warn(
      `libuv thread pool: ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'} threads on ${String(availableParallelism())} cores`,
    );
  } finally {
    await handle.close();
    await scratch.drop();
    await server.stop();
  }
}

await main();
