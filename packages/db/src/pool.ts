import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

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
}

export function connectDatabase(url: string, options: PoolOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'peeks',
    types,
  });
  // An idle client losing its server (restart, shutdown) must not crash the process.
  pool.on('error', options.onError ?? (() => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
