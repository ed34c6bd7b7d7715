import { connectDatabase, migrateToLatest, openDatabaseServer } from '@peeks/db';
import { ConfigError, Shutdown, createLogger, readConfig } from '@peeks/runtime';
import { startWorkers } from '@peeks/worker';
import { buildApp } from './app.ts';
import { WEB_DIST } from './plugins/web-app.ts';

/**
 * `npm start`: database (embedded unless DATABASE_URL), migrations, the HTTP
 * API with the web app on one port, and the workers in the same process
 * unless WORKERS=off.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config);
  const shutdown = new Shutdown(log);
  try {
    const server = await openDatabaseServer(config, log);
    shutdown.onSignals();
    shutdown.add('database server', () => server.stop());
    const database = connectDatabase(server.url, { onError: (error) => {
        log.warn({ err: error }, 'idle database connection lost');
      },
    });
    shutdown.add('database pool', () => database.close());

    const migration = await migrateToLatest(database.db);
    log.info({ migration }, 'database is at the latest migration');

    const app = await buildApp({ db: database.db, log, webRoot: WEB_DIST });
    shutdown.add('http server', () => app.close());
    await app.listen({ port: config.PORT, host: config.HOST });

    if (config.WORKERS === 'on') {
      const workers = await startWorkers({ databaseUrl: server.url, db: database.db, config, log });
      shutdown.add('workers', () => workers.stop());
    }
    const { port } = app.server.address() as { port: number };
    log.info({ url: `http://localhost:${port}` }, 'Peeks Wallet is up');
  } catch (error) {
    await shutdown.run();
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
