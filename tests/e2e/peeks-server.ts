import { spawn } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface PeeksServer {
  /** Where the web app and the API answer, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The server's own database, for what a test reads behind the app's back (the e-mail outbox). */
  database: TestDatabase;
  /** Every log line the server wrote. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Held while one test file builds the web app: files run in parallel processes, and one build must not overwrite another. */
const BUILD_LOCK = path.join(ROOT, '.data', 'web-build.lock');
/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

async function buildWebApp(): Promise<void> {
  await mkdir(path.dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      await mkdir(BUILD_LOCK);
      break;
    } catch {
      const since = await stat(BUILD_LOCK).then(
        (lock) => Date.now() - lock.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(BUILD_LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const build = run([path.join(ROOT, 'web', 'build-if-stale.ts')], process.env);
    let output = '';
    build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const built = await new Promise<number | null>((resolve) => build.on('exit', resolve));
    if (built !== 0) throw new Error(`the web app did not build:\n${output}`);
  } finally {
    await rm(BUILD_LOCK, { recursive: true, force: true });
  }
}

function run(args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * What `npm start` does, on a fresh database: builds the web app if its
 * sources changed, then runs the API, the web app and the workers in one
 * process. No demo data: each journey makes its own users.
 */
export async function startPeeks(env: NodeJS.ProcessEnv = {}): Promise<PeeksServer> {
  await buildWebApp();

  const database = await createTestDatabase();
  const server = run([path.join(ROOT, 'services', 'server', 'src', 'main.ts')], {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: '0',
    DEMO_DATA: 'off',
    LOG_LEVEL: 'info',
    JOB_SUPERVISE_SECONDS: '1',
    ...env,
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let partial = '';
  const up = new Promise<string>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      const complete = (partial + chunk.toString()).split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete.filter((each) => each.startsWith('{'))) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        if (entry.msg === 'Peeks Wallet is up' && typeof entry.url === 'string') resolve(entry.url);
      }
    });
    server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    server.on('exit', (code) => {
      reject(new Error(`the server exited (${String(code)}) before it was up:\n${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) =>
    server.on('exit', () => {
      resolve();
    }),
  );
  const url = (await up).replace('localhost', '127.0.0.1');
  return {
    url,
    database,
    lines,
    stop: async () => {
      server.kill('SIGTERM');
      await exited;
      await database.drop();
    },
  };
}
