import { catchUp } from '@peeks/db';
import { ledgerLog, logKeyFromSeed, logSize, makeCheckpoint } from '@peeks/ledger-store';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';

/** The key test apps sign the ledger log with: a fixed seed, so a test can check what it signs. */
export const TEST_LOG_KEY = logKeyFromSeed('peeks-wallet.test/ledger', Buffer.alloc(32, 7).toString('base64'));

/**
 * Sequences every event so far and signs a checkpoint of the log, as the
 * workers would; returns the log's size. It polls: the sequencer reads only
 * below the oldest transaction still running on the whole server, which
 * other test files' databases hold open now and then.
 */
export async function sequencedAndSigned(subject: TestApp): Promise<number> {
  const { db } = subject.database;
  const { count } = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  await expect
    .poll(
      async () => {
        await catchUp(db, ledgerLog);
        return logSize(db);
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(count);
  await makeCheckpoint(db, TEST_LOG_KEY, new Date());
  return logSize(db);
}
