import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../pool.ts';
import type { Database } from '../schema.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Any database on the test server, for CREATE/DROP DATABASE. */
    maintenanceDatabaseUrl: string;
    /** A database migrated to the latest schema, copied for each test file. */
    templateDatabase: string;
  }
}

export interface TestDatabase extends DatabaseHandle {
  url: string;
  drop: () => Promise<void>;
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withMaintenanceClient<T>(
  work: (client: pg.Client) => Promise<T>,
  url = inject('maintenanceDatabaseUrl'),
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of its own for one test file; drop it in afterAll. */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await withMaintenanceClient((client) =>
    client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`),
  );
  const url = databaseUrl(inject('maintenanceDatabaseUrl'), name);
  // As the product's processes run (see runDatabaseProcess), prepared statements included.
  const handle = connectDatabase(url, {
    max: options.max ?? 10,
    applicationName: 'peeks-test',
    preparedStatements: true,
  });
  return {
    ...handle,
    url,
    drop: async () => {
      await handle.close();
      await withMaintenanceClient((client) =>
        client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
      );
    },
  };
}

/** Changes rows the way an attacker with table access would: with the append-only triggers switched off. */
export async function tamper(db: Kysely<Database>, statement: ReturnType<typeof sql>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}
export { startScratchServer, startScratchStandby, type ScratchServer, type ScratchStandby } from './scratch-server.ts';
