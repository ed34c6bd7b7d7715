import { runDatabaseProcess } from '@peeks/db';
import { parseArgs } from 'node:util';
import { readLogKey } from './log/log-key.ts';
import { checkpointToExtend } from './log/outside-checkpoint.ts';
import { describeLedgerReport } from './report.ts';
import { verifyLedger } from './verify.ts';

/**
 * `npm run ledger:verify [-- --checkpoint FILE]`: replays the whole log
 * into fresh tables and compares them with the live read models row by row,
 * checks every hash chain and every money invariant, rebuilds the ledger
 * log and checks its checkpoints, and proves it extends a checkpoint kept
 * outside the database (the file given, else the newest in
 * LEDGER_WITNESS_DIR). Prints a report; exits 1 on any problem.
 */
runDatabaseProcess('peeks-ledger-verify', async ({ config, db }) => {
  const { values } = parseArgs({ options: { checkpoint: { type: 'string' } } });
  const key = await readLogKey({
    origin: config.LEDGER_LOG_ORIGIN,
    seed: config.LEDGER_LOG_KEY,
    dataDir: config.DATA_DIR,
  });
  const outside = await checkpointToExtend(values.checkpoint, config.LEDGER_WITNESS_DIR);
  const report = await verifyLedger(db, { log: { vkey: key?.vkey, outside } });
  process.stdout.write(describeLedgerReport(report));
  return report.ok ? 0 : 1;
});
