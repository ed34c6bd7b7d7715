import { ConfigError, Shutdown, createLogger, readConfig, type Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { openDatabaseServer } from './database-server.ts';
import { connectDatabase } from './pool.ts';
import type { Database } from './schema.ts';

/**
 * Runs a one-off command against the configured database (DATABASE_URL, else
 * the embedded one, which must not be running under `npm start` at the same
 * time) and exits with the code the command returns.
 */
export function runDatabaseCommand(command: (db: Kysely<Database>, log: Logger) => Promise<number>): void {
  const run = async (): Promise<number> => {
    const config = readConfig();
    const log = createLogger(config);
    const shutdown = new Shutdown(log);
    try {
      const server = await openDatabaseServer(config, log);
      shutdown.add('database server', () => server.stop());
      const database = connectDatabase(server.url, { max: 2 });
      shutdown.add('database pool', () => database.close());
      return await command(database.db, log);
    } finally {
      await shutdown.run();
    }
  };
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
