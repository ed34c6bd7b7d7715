import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { openWallets } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerVerificationJob } from './verification.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await openWallets(database.db, 'user-1');
});
afterAll(() => database.drop());

const log = createLogger({ LOG_LEVEL: 'silent' });
const job = () => new LedgerVerificationJob(database.db, () => new Date(), log);

describe('ledger verification runs', () => {
  it('are one at a time across processes, and every process reports the same last run', async () => {
    const [here, there] = [job(), job()];
    expect(await here.status()).toMatchObject({ state: 'never run' });
    expect(await here.start('user-1')).toBe(true);
    expect(await there.start('user-2')).toBe(false);
    expect(await there.status()).toMatchObject({ state: 'running', finished_at: null });
    await here.settled();
    const finished = await there.status();
    expect(finished).toMatchObject({ state: 'finished', ok: true, progress: { stage: 'invariants' } });
    expect(finished.report).toContain('OK');
    // A restart forgets nothing: a new process reads the same run.
    expect(await job().status()).toEqual(finished);
  });

  it('marks a run whose process died as crashed once its heartbeat is a minute old', async () => {
    const stale = new Date(Date.now() - 90_000);
    await database.db
      .insertInto('ledger_verifications')
      .values({ state: 'running', started_by: 'user-1', started_at: stale, heartbeat_at: stale, progress: null })
      .execute();
    const status = await job().status();
    expect(status).toMatchObject({ state: 'crashed', ok: null });
    expect(status.report).toContain('the process running it ended');
    // Its place is free again.
    const next = job();
    expect(await next.start('user-1')).toBe(true);
    await next.settled();
  });
});
