import { runDatabaseProcess } from '@peeks/db';
import { describeLedgerReport } from './report.ts';
import { verifyLedger } from './verify.ts';

/**
 * `npm run ledger:verify`: replays the whole log into fresh tables and
 * compares them with the live read models row by row, checks every hash
 * chain and every money invariant. Prints a report; exits 1 on any problem.
 */
runDatabaseProcess('peeks-ledger-verify', async ({ db }) => {
  const report = await verifyLedger(db);
  process.stdout.write(describeLedgerReport(report));
  return report.ok ? 0 : 1;
});
