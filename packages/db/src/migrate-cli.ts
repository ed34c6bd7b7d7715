import { runDatabaseProcess } from './database-process.ts';

/** `npm run migrate`: apply pending migrations (every process does on start) and stop. */
runDatabaseProcess('peeks-migrate', () => Promise.resolve(0));
