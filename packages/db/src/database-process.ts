import { ConfigError, Shutdown, createLogger, readConfig, type Config, type Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { openDatabaseServer } from './database-server.ts';
import { untilDatabaseAnswers } from './database-wait.ts';
import { migrateToLatest } from './migrator.ts';
import { connectDatabase } from './pool.ts';
import { ReadReplica } from './read-replica.ts';
import type { Database } from './schema.ts';

export interface DatabaseProcess {
  config: Config;
  log: Logger;
  /** Add what the process starts; it is stopped in reverse order, before the database. */
  shutdown: Shutdown;
  db: Kysely<Database>;
  databaseUrl: string;
  /** DATABASE_READ_URL's standbys and the rule that routes lag-tolerant reads to them; null without it or unasked. */
  readReplica: ReadReplica | null;
}

/**
 * The start every process of the product shares: configuration, logger, the
 * database server (embedded unless DATABASE_URL) and pool, migrations, and an
 * ordered shutdown on SIGINT/SIGTERM. `body` adds the process's own work. If
 * it returns an exit code, the process stops with it (one-off commands);
 * otherwise it keeps running until a signal (the API, the workers). A failure
 * anywhere stops what had started and exits 1 with the error's message.
 */
export function runDatabaseProcess(
  applicationName: string,
  body: (process: DatabaseProcess) => Promise<number | undefined>,
  options: { readReplica?: boolean } = {},
): void {
  const run = async () => {
    const config = readConfig();
    const log = createLogger(config);
    const shutdown = new Shutdown(log);
    try {
      const server = await openDatabaseServer(config, log);
      shutdown.onSignals();
      shutdown.add('database server', () => server.stop());
      const database = connectDatabase(server.url, {
        applicationName,
        preparedStatements: true,
        onError: (error) => {
          // The message only: pg-pool hangs the whole client (its statements and settings) on the error.
          log.warn({ reason: error.message }, 'idle database connection lost');
        },
      });
      shutdown.add('database pool', () => database.close());
      const migration = await untilDatabaseAnswers(() => migrateToLatest(database.db), {
        waitMs: config.DATABASE_WAIT_SECONDS * 1_000,
        log,
      });
      log.info({ migration }, 'database is at the latest migration');

      let readReplica: ReadReplica | null = null;
      // Only a process that serves reads asks for it (the API); workers read what they are about to write.
      if (options.readReplica === true && config.DATABASE_READ_URL !== undefined) {
        const replica = new ReadReplica(database.db, config.DATABASE_READ_URL, {
          maxLagMs: config.DATABASE_READ_MAX_LAG_MS,
          applicationName: `${applicationName}-reader`,
          onError: (error) => {
            log.warn({ reason: error.message }, 'read replica not reachable; reads go to the primary');
          },
        });
        shutdown.add('read replica', () => replica.close());
        await replica.start();
        readReplica = replica;
      }

      const exitCode = await body({
        config,
        log,
        shutdown,
        db: database.db,
        databaseUrl: server.url,
        readReplica,
      });
      if (exitCode !== undefined) {
        await shutdown.run();
        process.exit(exitCode);
      }
    } catch (error) {
      await shutdown.run();
      throw error;
    }
  };
  run().catch((error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
