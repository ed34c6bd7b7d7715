import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { appendToStream, connectDatabase, readStream } from '@peeks/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as a newcomer runs it: no DATABASE_URL, so an embedded
 * PostgreSQL under DATA_DIR. This runs whatever DATABASE_URL the test run
 * itself has, so CI exercises the embedded path too.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(ROOT, '.data', 'start-test-'));
  // Postgres runs as its own system user and must reach its directory inside this one.
  await chmod(dataDir, 0o755);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  /** What the process printed that is not a log line: the demo accounts, once. */
  printed: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>, checkout = ROOT): Started {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(checkout, 'services/server/src/main.ts')], {
    cwd: checkout,
    env: { ...inherited, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const printed: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const complete = stdout.split('\n');
    stdout = complete.pop() ?? '';
    for (const line of complete.filter(Boolean)) {
      if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
      else printed.push(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  return { child, lines, printed, stderr: () => stderr, exited };
}

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Postgres processes serving this test's data directory, read from /proc. */
async function postgresProcessesFor(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('postgres') && cmdline.includes(dir)) pids.push(Number(entry));
  }
  return pids;
}

async function upAndHealthy(server: Started) {
  const up = await until(() => server.lines.find((line) => line.msg === 'Peeks Wallet is up'), 'the server to come up');
  const health = await fetch(`${String(up.url)}/api/health`);
  const database = await until(
    () => server.lines.find((line) => line.msg === 'embedded PostgreSQL is up'),
    'the database line',
  );
  const password = (await readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  return {
    url: String(up.url),
    health,
    databaseUrl: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${String(database.port)}/peeks`,
  };
}

async function interrupt(server: Started): Promise<number | null> {
  server.child.kill('SIGINT');
  return server.exited;
}

describe('npm start on embedded PostgreSQL', () => {
  it('serves /api/health, keeps its data across restarts and leaves no postgres behind on Ctrl-C', async () => {
    const first = startServer({});
    const firstRun = await upAndHealthy(first).catch((error: unknown) => {
      first.child.kill('SIGKILL');
      throw new Error(`${String(error)}\n${first.stderr()}`);
    });
    expect(firstRun.health.status).toBe(200);
    expect(await firstRun.health.json()).toMatchObject({
      response: 'success',
      database: 'up',
      migration: expect.stringMatching(/^\d{4}_/) as unknown,
    });
    expect(first.lines.some((line) => line.msg === 'creating embedded PostgreSQL data directory')).toBe(true);

    // The demo accounts are printed on the first start only, and their passwords sign in.
    const demoAccounts = first.printed.flatMap(
      (line) => /^\s+(?:personal user|merchant user|finance operator)\s+(\w+)\s+(\S+)/.exec(line)?.slice(1, 3) ?? [],
    );
    expect(demoAccounts.filter((_, index) => index % 2 === 0)).toEqual([
      'demo_personal',
      'demo_merchant',
      'demo_finance',
    ]);
    const session = await fetch(`${firstRun.url}/api/session`);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const signIn = await fetch(`${firstRun.url}/api/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: session.headers
          .getSetCookie()
          .map((cookie) => cookie.split(';')[0])
          .join('; '),
        'x-csrf-token': csrfToken,
      },
      body: JSON.stringify({ username: demoAccounts[4], password: demoAccounts[5] }),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    expect(JSON.stringify(first.lines)).not.toContain(demoAccounts[5]);

    const writer = connectDatabase(firstRun.databaseUrl, { max: 1 });
    await appendToStream(writer.db, 'smoke-1', [{ type: 'Noted', data: { by: 'first run' } }], { expectedVersion: 0 });
    await writer.close();

    expect(await interrupt(first)).toBe(0);
    expect(await postgresProcessesFor(dataDir)).toEqual([]);

    const second = startServer({});
    const secondRun = await upAndHealthy(second);
    expect(secondRun.health.status).toBe(200);
    expect(second.lines.some((line) => line.msg === 'reusing embedded PostgreSQL data directory')).toBe(true);
    expect(second.printed.join('\n')).not.toContain('Demo accounts');
    const reader = connectDatabase(secondRun.databaseUrl, { max: 1 });
    expect((await readStream(reader.db, 'smoke-1')).map((event) => event.data)).toEqual([{ by: 'first run' }]);
    await reader.close();

    expect(await interrupt(second)).toBe(0);
    expect(await postgresProcessesFor(dataDir)).toEqual([]);
  }, 150_000);

  it('waits for a database that is away, then gives up after DATABASE_WAIT_SECONDS', async () => {
    // A loopback port nothing listens on: taken, then let go.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => {
          resolve(port);
        });
      });
    });
    const server = startServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/peeks`,
      DATABASE_WAIT_SECONDS: '2',
    });
    expect(await server.exited).toBe(1);
    const waits = server.lines.filter((line) => line.msg === 'database not reachable yet; waiting for it');
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(server.stderr()).toContain('ECONNREFUSED');
  });

  it('refuses to start on bad configuration, one line per problem naming the variable', async () => {
    const server = startServer({ PORT: 'eighty', HOLD_HOURS: 'soon' });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('Configuration is invalid:');
    expect(server.stderr()).toMatch(/^PORT: .*"eighty"/m);
    expect(server.stderr()).toMatch(/^HOLD_HOURS: .*"soon"/m);
    expect(await postgresProcessesFor(dataDir)).toEqual([]);
  });
});

/**
 * `npm start` from a checkout inside a folder only its owner may enter
 * (0700, as /root is, or any mktemp -d), with the embedded PostgreSQL. Run
 * as root, the server runs as the `postgres` user, who can reach neither
 * the binaries in node_modules nor DATA_DIR there. The checkout is this
 * one, hard-linked (node_modules, the sources) into such a folder.
 */
describe('npm start from a checkout in a 0700 folder, on embedded PostgreSQL', () => {
  let box: string;
  let checkout: string;
  const clusters: string[] = [];

  beforeAll(async () => {
    await mkdir(path.join(ROOT, '.data'), { recursive: true });
    box = await mkdtemp(path.join(ROOT, '.data', 'private-'));
    await chmod(box, 0o700);
    checkout = path.join(box, 'peeks');
    await mkdir(checkout);
    const parts = ['package.json', 'node_modules', 'packages', 'services', 'migrations', 'web/package.json'];
    await mkdir(path.join(checkout, 'web'));
    for (const part of parts)
      await promisify(execFile)('cp', ['-al', path.join(ROOT, part), path.join(checkout, path.dirname(part))]);
  }, 120_000);
  afterAll(async () => {
    await rm(box, { recursive: true, force: true });
    for (const cluster of clusters) await rm(path.dirname(cluster), { recursive: true, force: true });
  });

  it('comes up, answers /api/health, and leaves no postgres behind on Ctrl-C', async () => {
    const server = startServer({ DATA_DIR: path.join(checkout, '.data'), DEMO_DATA: 'off', WORKERS: 'off' }, checkout);
    const up = await until(
      () => server.lines.find((line) => line.msg === 'Peeks Wallet is up'),
      'the server to come up',
      120_000,
    ).catch((error: unknown) => {
      server.child.kill('SIGKILL');
      throw new Error(`${String(error)}\n${server.stderr()}`);
    });
    expect((await fetch(`${String(up.url)}/api/health`)).status).toBe(200);
    expect(await interrupt(server)).toBe(0);

    const cluster = server.lines.find((line) => line.msg === 'creating embedded PostgreSQL data directory')?.dataDir;
    expect(typeof cluster).toBe('string');
    if (process.getuid?.() === 0) {
      // The postgres user cannot enter the checkout: the data lives where it can, as the log says.
      expect(String(cluster).startsWith(box)).toBe(false);
      clusters.push(String(cluster));
    } else {
      expect(String(cluster)).toBe(path.join(checkout, '.data', 'postgres'));
    }
    expect(await postgresProcessesFor(String(cluster))).toEqual([]);
  }, 180_000);
});
