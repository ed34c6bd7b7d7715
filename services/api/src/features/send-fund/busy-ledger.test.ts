import { errorCatalogue, errorCodes, errorEnvelope } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { ledgerQueueCounts, limitLedgerQueue, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';

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

const send = (amount: number, key: string) =>
  ann.browser.request(
    'POST',
    '/api/account/send-fund',
    { guser_id: bob.user.guser_id, amount },
    { 'idempotency-key': key },
  );
const balance = async (who: SignedIn) =>
  (await walletsOf(subject.database.db, owner(who))).find((wallet) => wallet.walletId === walletIdOf(owner(who), 'CON'))
    ?.available;

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('send-fund while the ledger is busy', () => {
  it("answers 503 with Retry-After in the error envelope beyond the ledger's queue, and the retry goes through", async () => {
    const db = subject.database.db;
    const [annBefore, bobBefore] = [await balance(ann), await balance(bob)];
    limitLedgerQueue(db, 1);

    // Another transaction holds Ann's wallet row: her first payment waits in its commit, the second for a batch.
    await db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      await sql`SELECT 1 FROM wallets WHERE wallet_id = ${walletIdOf(owner(ann), 'CON')} FOR UPDATE`.execute(
        connection,
      );
      try {
        const first = send(1_00, 'busy-first');
        await until(async () => {
          const { rows } = await sql<{ waiting: number }>`
            SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
          `.execute(db);
          return rows[0]?.waiting === 1;
        }, 'the first payment to wait on the lock');
        const second = send(2_00, 'busy-second');
        await until(() => ledgerQueueCounts(db).queued === 1, 'the second payment to wait for a batch');

        const turnedAway = await send(3_00, 'busy-third');
        expect(turnedAway.statusCode).toBe(503);
        expect(turnedAway.headers['retry-after']).toBe('1');
        expect(errorEnvelope.parse(turnedAway.json())).toEqual({
          response: 'error',
          request_id: expect.any(String) as string,
          message: errorCatalogue[errorCodes.ledgerBusy],
          errors: [{ code: errorCodes.ledgerBusy, message: errorCatalogue[errorCodes.ledgerBusy] }],
        });

        await sql`COMMIT`.execute(connection);
        expect((await first).statusCode).toBe(200);
        expect((await second).statusCode).toBe(200);
      } catch (error) {
        await sql`ROLLBACK`.execute(connection);
        throw error;
      }
    });
    expect(await balance(ann)).toBe((annBefore ?? 0) - 3_00);

    // The same request again, after Retry-After: done once.
    const retried = await send(3_00, 'busy-third');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await balance(ann)).toBe((annBefore ?? 0) - 6_00);
    expect(await balance(bob)).toBe((bobBefore ?? 0) + 6_00);
  });
});
