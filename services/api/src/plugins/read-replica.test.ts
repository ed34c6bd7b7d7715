import { connectDatabase, migrateToLatest, ReadReplica, type Database } from '@peeks/db';
import { startScratchServer, startScratchStandby, type ScratchServer, type ScratchStandby } from '@peeks/db/testing';
import { transactionListResponse } from '@peeks/contracts';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { WROTE_COOKIE } from './read-replica.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { fund } from '../testing/money.ts';
import { signedUpOperator } from '../testing/operations.ts';
import { userOwnerId } from '@peeks/ledger';

/**
 * Reads through `app.reader` on a real streaming standby of a scratch server:
 * lists go to the standby, a person sees their own write at once, and a
 * standby further behind than the bound is skipped. The standby's replay is
 * paused (pg_wal_replay_pause) to make it lag on purpose.
 */
let primary: ScratchServer;
let standby: ScratchStandby;
let primaryDb: { db: Kysely<Database>; close: () => Promise<void> };
let standbyAdmin: { db: Kysely<Database>; close: () => Promise<void> };
let replica: ReadReplica;
let subject: TestApp;
let otherReplica: ReadReplica;
let other: TestApp;

const standbyUrl = () => `${standby.url}?target_session_attrs=standby`;

beforeAll(async () => {
  primary = await startScratchServer();
  primaryDb = connectDatabase(primary.url, { applicationName: 'peeks-test' });
  await migrateToLatest(primaryDb.db);
  standby = await startScratchStandby(primary);
  standbyAdmin = connectDatabase(standby.url, { max: 1 });
  // A bound no test's pause reaches: the lag test below has a replica of its own with a short one.
  replica = new ReadReplica(primaryDb.db, standbyUrl(), { maxLagMs: 60_000, sampleMs: 20 });
  await replica.start();
  const appOn = (readReplica: ReadReplica) =>
    createTestApp({
      ...testAppOptions,
      database: { ...primaryDb, url: primary.url, drop: () => Promise.resolve() },
      readReplica,
      extend: (app) => {
        app.get(
          '/api/test/read-from',
          // A test's own route, hidden from the document: which server a lag-tolerant read of the caller's lands on.
          { config: { access: 'public' }, schema: { hide: true } },
          async (request) => {
            const { rows } = await sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(
              app.reader(request),
            );
            return { server: rows[0]?.standby === true ? 'standby' : 'primary' };
          },
        );
      },
    });
  subject = await appOn(replica);
  // A second API process on the same primary and standby, with a memory of its own.
  otherReplica = new ReadReplica(primaryDb.db, standbyUrl(), { maxLagMs: 60_000, sampleMs: 20 });
  await otherReplica.start();
  other = await appOn(otherReplica);
}, 120_000);

afterAll(async () => {
  await subject.close();
  await other.close();
  await replica.close();
  await otherReplica.close();
  await standbyAdmin.close();
  await primaryDb.close();
  await standby.stop();
  await primary.stop();
}, 60_000);

const readsFrom = async (who: SignedIn) => {
  const response = await who.browser.get('/api/test/read-from');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ server: string }>().server;
};

const transactionsOf = async (who: SignedIn, headers?: Record<string, string>) => {
  const response = await who.browser.request('POST', '/api/account/transactions', {}, headers);
  expect(response.statusCode, response.body).toBe(200);
  return transactionListResponse.parse(response.json()).transactions;
};

/** Asks again until `check` holds (replay takes its time); fails after about ten seconds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('did not happen within ten seconds');
}

const replay = (verb: 'pause' | 'resume') =>
  verb === 'pause'
    ? sql`SELECT pg_wal_replay_pause()`.execute(standbyAdmin.db)
    : sql`SELECT pg_wal_replay_resume()`.execute(standbyAdmin.db);

describe('reads from a standby', () => {
  it('sends lists to the standby, and a person who just wrote to the primary until it has replayed the write', async () => {
    const ann = await signedUp(subject, 'personal');
    const bob = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(ann.user.user_id), 10_000);
    // Signing up is a write: each reads from the standby once it has replayed it.
    await eventually(async () => (await readsFrom(ann)) === 'standby' && (await readsFrom(bob)) === 'standby');

    await replay('pause');
    try {
      const sent = await ann.browser.post('/api/account/send-fund', { guser_id: bob.user.guser_id, amount: 1234 });
      expect(sent.statusCode, sent.body).toBe(200);

      // Ann sees her send at once: her reads went to the primary, as the paused standby has not got it.
      expect(await readsFrom(ann)).toBe('primary');
      expect((await transactionsOf(ann)).map((row) => row.amount)).toContain(1234);

      // Another process, which did not serve the send, knows of it from the cookie the answer set.
      const wrote = sent.cookies.find((each) => each.name === WROTE_COOKIE)?.value ?? '';
      expect(wrote).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
      const session = `${SESSION_COOKIE}=${ann.browser.cookie ?? ''}`;
      const elsewhere = async (cookie: string) => {
        const headers = { cookie, 'x-csrf-token': ann.browser.csrfToken ?? '', 'content-type': 'application/json' };
        const list = await other.app.inject({ method: 'POST', url: '/api/account/transactions', payload: {}, headers });
        expect(list.statusCode, list.body).toBe(200);
        return transactionListResponse.parse(list.json()).transactions.map((row) => row.amount);
      };
      expect(await elsewhere(`${session}; ${WROTE_COOKIE}=${wrote}`)).toContain(1234);
      // Without it, that process sends her list to the paused standby, which has not got the send.
      expect(await elsewhere(session)).not.toContain(1234);

      // Bob did not write: his list comes from the standby, which has not replayed Ann's send yet.
      expect(await readsFrom(bob)).toBe('standby');
      expect((await transactionsOf(bob)).map((row) => row.amount)).not.toContain(1234);
      // A list sent as POST is no write: reading it leaves Bob on the standby.
      expect(await readsFrom(bob)).toBe('standby');
    } finally {
      await replay('resume');
    }

    await eventually(async () => (await transactionsOf(bob)).some((row) => row.amount === 1234));
    await eventually(async () => (await readsFrom(ann)) === 'standby');
  });

  it('answers every route that reads through app.reader from a standby', async () => {
    const ann = await signedUp(subject, 'personal');
    const shop = await signedUp(subject, 'business');
    const operator = await signedUpOperator(subject);
    await fund(subject, userOwnerId(ann.user.user_id), 10_000);
    const paid = await ann.browser.post('/api/account/send-fund', { guser_id: shop.user.guser_id, amount: 250 });
    expect(paid.statusCode, paid.body).toBe(200);
    const who = [ann, shop, operator];
    await eventually(async () => (await Promise.all(who.map(readsFrom))).every((server) => server === 'standby'));

    const today = new Date().toISOString().slice(0, 10);
    const reads: [SignedIn, 'GET' | 'POST', string, number][] = [
      [ann, 'POST', '/api/account/ledger', 200],
      [ann, 'POST', '/api/account/transactions', 200],
      [shop, 'GET', '/api/merchant/dashboard', 200],
      [shop, 'GET', '/api/merchant/transfers', 200],
      [shop, 'GET', '/api/merchant/returns', 200],
      [shop, 'GET', '/api/merchant/settlements', 200],
      [shop, 'GET', `/api/merchant/report?from=${today}&to=${today}`, 200],
      [shop, 'GET', `/api/merchant/report.csv?from=${today}&to=${today}`, 200],
      [operator, 'GET', '/api/operations/events', 200],
      [operator, 'GET', '/api/operations/overview', 200],
      [operator, 'GET', '/api/operations/coin-trail?serial=no-such-coin', 404],
    ];
    for (const [caller, method, url, status] of reads) {
      const answer = await caller.browser.request(method, url, method === 'POST' ? {} : undefined);
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(status);
    }
    // Reading moved no one off the standby: the answers above came from it.
    expect(await Promise.all(who.map(readsFrom))).toEqual(['standby', 'standby', 'standby']);
  });

  it('skips a standby further behind than DATABASE_READ_MAX_LAG_MS, and comes back to it once caught up', async () => {
    const bounded = new ReadReplica(primaryDb.db, standbyUrl(), { maxLagMs: 200, sampleMs: 20 });
    await bounded.start();
    const serverOf = async () => {
      const { rows } = await sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(
        bounded.readerFor(null),
      );
      return rows[0]?.standby === true ? 'standby' : 'primary';
    };
    try {
      await eventually(async () => (await serverOf()) === 'standby');
      await replay('pause');
      try {
        // Writes the standby cannot replay while paused, until it is behind by more than the bound.
        await sql`CREATE TABLE IF NOT EXISTS lag_marks (at timestamptz)`.execute(primaryDb.db);
        await eventually(async () => {
          await sql`INSERT INTO lag_marks VALUES (now())`.execute(primaryDb.db);
          return (bounded.lagMs ?? 0) > 200;
        });
        expect(await serverOf()).toBe('primary');
      } finally {
        await replay('resume');
      }
      await eventually(async () => (await serverOf()) === 'standby');
      expect(bounded.lagMs).toBeLessThanOrEqual(200);
    } finally {
      await bounded.close();
    }
  });

  it('sends every read to the primary when the standby cannot be reached', async () => {
    const unreachable = new ReadReplica(primaryDb.db, 'postgres://postgres@127.0.0.1:1/postgres', {
      maxLagMs: 1_000,
      sampleMs: 20,
    });
    await unreachable.start();
    try {
      expect(unreachable.targetFor(null)).toBe('primary');
      expect(unreachable.lagMs).toBeNull();
    } finally {
      await unreachable.close();
    }
  });
});
