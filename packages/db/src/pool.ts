import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { poolConnection } from './session-target.ts';

const INT8_OID = pg.types.builtins.INT8;

/**
 * Positions, versions and minor-unit amounts are int8 in Postgres. They are
 * read as numbers, and refused loudly if one ever passes 2^53, rather than
 * silently rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is beyond the safe integer range`);
  return value;
}

const types = new pg.TypeOverrides();
types.setTypeParser(INT8_OID, parseInt8);
// A calendar date stays "YYYY-MM-DD": as a JavaScript Date it would be
// midnight in the server's time zone, a day off for anyone west of it.
types.setTypeParser(pg.types.builtins.DATE, (text) => text);

export interface DatabaseHandle {
  db: Kysely<Database>;
  close: () => Promise<void>;
}

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  onError?: (error: Error) => void;
  /** Prepare the statements the process runs again and again on the server, once per connection (see StatementNames). */
  preparedStatements?: boolean;
}

/** Runs of one statement text before it is prepared: a one-off (a migration, a report) never is. */
const PREPARE_AFTER_RUNS = 3;
/** Prepared statements per connection at most: each keeps its plan in the backend's memory. */
const MAX_PREPARED = 200;
/** Statement texts counted towards PREPARE_AFTER_RUNS at most. */
const MAX_COUNTED = 10_000;

/**
 * Names for the statements a process runs often, as PgJDBC's prepareThreshold
 * does. A statement sent unnamed is parsed, analysed and planned by Postgres
 * at every run; a named one once per connection, then only bound and run.
 * Under bench:api that was a third of Postgres's CPU per send-fund (the
 * session and payee reads of every request). The name is derived from the
 * text alone, so a connection never sees one name for two texts. Statements
 * without parameters keep the simple protocol, which also takes several
 * commands in one text (migrations).
 */
export class StatementNames {
  readonly #runs = new Map<string, number>();
  readonly #names = new Map<string, string>();
  readonly #unnamed = new Set<string>();

  nameOf(text: string): string | undefined {
    const named = this.#names.get(text);
    if (named !== undefined || this.#names.size >= MAX_PREPARED || this.#unnamed.has(text)) return named;
    const runs = (this.#runs.get(text) ?? 0) + 1;
    if (runs < PREPARE_AFTER_RUNS) {
      // Texts that differ at every run (an IN list of any length) must not pile up.
      if (this.#runs.size >= MAX_COUNTED) this.#runs.clear();
      this.#runs.set(text, runs);
      return undefined;
    }
    this.#runs.delete(text);
    const name = `peeks_${this.#names.size + 1}`;
    this.#names.set(text, name);
    return name;
  }

  /** Sends `text` unnamed from now on: its prepared form no longer fits the table it reads. */
  unname(text: string): void {
    this.#names.delete(text);
    this.#unnamed.add(text);
  }
}

/**
 * Postgres refuses to run a prepared statement whose result columns changed
 * under it (a `SELECT *` of a table a newer process's migration altered).
 */
const isStalePlan = (error: unknown) =>
  (error as { code?: unknown }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

/** Makes `client` send the statements `names` names as prepared statements. */
function prepareOften(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = (text: unknown, values?: unknown, callback?: unknown) => {
    const name =
      typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined
        ? names.nameOf(text)
        : undefined;
    if (name === undefined) return query(text, values, callback);
    // Sent again unnamed, which succeeds outside a transaction; inside one, the transaction has failed already.
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      names.unname(text as string);
      return query(text, values);
    });
  };
  Object.assign(client, { query: prepared });
}

export function connectDatabase(url: string, options: PoolOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    // A multi-host URL (a primary and its standby): every connection goes to the host the URL asks for.
    ...poolConnection(url),
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'peeks',
    types,
  });
  // An idle client losing its server (restart, shutdown) must not crash the process.
  pool.on('error', options.onError ?? (() => undefined));
  // pg-pool listens only while a client is idle: one whose server goes while it is checked out, between two
  // statements, would emit 'error' to no one and end the process. Its statements fail anyway, and the pool drops
  // it on release, so this listener only has to be there.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  if (options.preparedStatements) {
    const names = new StatementNames();
    pool.on('connect', (client) => {
      prepareOften(client, names);
    });
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
