import type { Database } from '@peeks/db';
import { executeLedgerCommand, loadTransaction, type LedgerSettings } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { HOLD_RELEASE_QUEUE } from '@peeks/jobs';
import { workEach } from '../job.ts';

/**
 * Makes a transfer's held money withdrawable. A hold already released (by
 * an earlier run of this job that died before reporting) is left alone, so
 * however often the job runs, the hold is released once.
 */
export async function releaseHold(
  db: Kysely<Database>,
  settings: LedgerSettings,
  txId: string,
): Promise<'released' | 'already released'> {
  const tx = await loadTransaction(db, txId);
  if (tx?.holdReleasedAt) return 'already released';
  await executeLedgerCommand(db, { type: 'ReleaseHold', txId }, settings);
  return 'released';
}

export async function runHoldRelease(
  boss: PgBoss,
  deps: { db: Kysely<Database>; settings: LedgerSettings; log: Logger },
): Promise<void> {
  await workEach<{ txId: string }>(boss, HOLD_RELEASE_QUEUE.name, async (job) => {
    const outcome = await releaseHold(deps.db, deps.settings, job.data.txId);
    deps.log.info({ txId: job.data.txId, outcome }, 'hold release');
  });
}
