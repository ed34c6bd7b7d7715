import { errorCatalogue, errorCodes, errorEnvelope } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { fund } from '../testing/money.ts';

let subject: TestApp;
let ann: SignedIn;
let bob: SignedIn;
const owner = (who: SignedIn) => userOwnerId(who.user.user_id);

beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  [ann, bob] = await Promise.all([signedUp(subject, 'personal'), signedUp(subject, 'personal')]);
  await fund(subject, owner(ann), 100_000);
});
afterAll(() => subject.close());

const send = (key: string) =>
  ann.browser.request(
    'POST',
    '/api/account/send-fund',
    { guser_id: bob.user.guser_id, amount: 2_00 },
    { 'idempotency-key': key },
  );
const available = async (who: SignedIn) =>
  (await walletsOf(subject.database.db, owner(who))).find((wallet) => wallet.walletId === walletIdOf(owner(who), 'CON'))
    ?.available ?? 0;

/**
 * Ends, as a restart would, every connection of this test's database that
 * waits on a lock, until `request` is answered (at most 10 s): the ledger
 * runs a command of a failed batch again on its own, which waits and is
 * ended too.
 */
async function endWaitingConnections<T>(request: Promise<T>): Promise<T> {
  const state = { answered: false };
  void request.finally(() => {
    state.answered = true;
  });
  const deadline = Date.now() + 10_000;
  while (!state.answered) {
    if (Date.now() > deadline) throw new Error('the request was not answered');
    await sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
    `.execute(subject.database.db);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return request;
}

describe('a database lost while a request runs (issue 33)', () => {
  it('answers 503 with Retry-After in the envelope, not 500, and the same keyed send later goes through once', async () => {
    const [annBefore, bobBefore] = [await available(ann), await available(bob)];
    const db = subject.database.db;
    // Another transaction holds Ann's wallet row, so her send is mid-statement when its connection is ended,
    // as a PostgreSQL restart ends every connection (57P01, "terminating connection due to administrator command").
    const lost = await db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      try {
        await sql`SELECT 1 FROM wallets WHERE wallet_id = ${walletIdOf(owner(ann), 'CON')} FOR UPDATE`.execute(
          connection,
        );
        return await endWaitingConnections(send('lost-database'));
      } finally {
        await sql`ROLLBACK`.execute(connection);
      }
    });
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.headers['retry-after']).toBe('5');
    expect(errorEnvelope.parse(lost.json())).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: errorCatalogue[errorCodes.unavailable],
      errors: [{ code: errorCodes.unavailable, message: errorCatalogue[errorCodes.unavailable] }],
    });
    expect(await available(ann)).toBe(annBefore);

    const retried = await send('lost-database');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await send('lost-database')).toMatchObject({ statusCode: 200 });
    expect(await available(ann)).toBe(annBefore - 2_00);
    expect(await available(bob)).toBe(bobBefore + 2_00);
  });
});
