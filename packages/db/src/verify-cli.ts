import { runDatabaseProcess } from './database-process.ts';
import { verifyAllStreams } from './event-store/verify.ts';

/** `npm run verify`: recompute every stream's hash chain; exit 1 if any is broken. */
runDatabaseProcess('peeks-verify', async ({ db, log }) => {
  const report = await verifyAllStreams(db);
  for (const broken of report.breaks) log.error(broken, 'hash chain broken');
  log.info(
    { streams: report.streamsChecked, events: report.eventsChecked, broken: report.breaks.length },
    report.breaks.length === 0 ? 'every hash chain verifies' : 'hash chains are broken',
  );
  return report.breaks.length === 0 ? 0 : 1;
});
