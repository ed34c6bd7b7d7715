import { runDatabaseProcess } from '@peeks/db';
import { startWorkers } from './index.ts';

/** `npm run worker`: the workers alone, for running any number of copies beside the API. */
runDatabaseProcess('peeks-worker', async ({ config, log, shutdown, db, databaseUrl }) => {
  const workers = await startWorkers({ databaseUrl, db, config, log });
  shutdown.add('workers', () => workers.stop());
  return undefined;
});
