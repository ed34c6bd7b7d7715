import { runDatabaseProcess } from '@peeks/db';
import { ledgerLogSettingsFrom, startWorkers } from './index.ts';

/** `npm run worker`: the workers alone, for running any number of copies beside the API. */
runDatabaseProcess('peeks-worker', async ({ config, log, shutdown, db, databaseUrl }) => {
  const ledgerLog = await ledgerLogSettingsFrom(config, log);
  const workers = await startWorkers({ databaseUrl, db, config, log, ledgerLog });
  shutdown.add('workers', () => workers.stop());
  return undefined;
});
