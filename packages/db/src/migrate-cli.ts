import { runDatabaseCommand } from './database-command.ts';
import { migrateToLatest } from './migrator.ts';

/** `npm run migrate`: apply pending migrations and stop. */
runDatabaseCommand(async (db, log) => {
  log.info({ migration: await migrateToLatest(db) }, 'database is at the latest migration');
  return 0;
});
