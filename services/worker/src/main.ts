import { connectDatabase, migrateToLatest, openDatabaseServer } from '@peeks/db';
import { ConfigError, Shutdown, createLogger, readConfig } from '@peeks/runtime';
import { startWorkers } from './index.ts';

/** `npm run worker`: the workers alone, for running any number of copies beside the API. */
async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config);
  const shutdown = new Shutdown(log);
  try {
    const server = await openDatabaseServer(config, log);
    shutdown.onSignals();
    shutdown.add('database server', () => server.stop());
    const database = connectDatabase(server.url, { applicationName: 'peeks-worker', onError: (error) => {
        log.warn({ err: error }, 'idle database connection lost');
      },
    });
    shutdown.add('database pool', () => database.close());
    await migrateToLatest(database.db);
    const workers = await startWorkers({ databaseUrl: server.url, db: database.db, config, log });
    shutdown.add('workers', () => workers.stop());
  } catch (error) {
    await shutdown.run();
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
