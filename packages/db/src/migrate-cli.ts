import { ConfigError, createLogger, readConfig } from '@peeks/runtime';
import { openDatabaseServer } from './database-server.ts';
import { migrateToLatest } from './migrator.ts';
import { connectDatabase } from './pool.ts';

/** `npm run migrate`: apply pending migrations and stop. */
async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config);
  const server = await openDatabaseServer(config, log);
  const { db, close } = connectDatabase(server.url, { max: 1 });
  try {
    const latest = await migrateToLatest(db);
    log.info({ migration: latest }, 'database is at the latest migration');
  } finally {
    await close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
