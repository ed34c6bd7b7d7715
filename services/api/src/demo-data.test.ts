import { pendingDepositsResponse, signedInResponse } from '@peeks/contracts';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { userOwnerId } from '@peeks/ledger';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoData, describeDemoAccounts, type DemoAccount } from './demo-data.ts';
import { createTestApp, type TestApp } from './testing/app.ts';

const settings = { holdHours: 24 };

describe('demo data on the first start', () => {
  let database: TestDatabase;
  let subject: TestApp;
  let accounts: DemoAccount[] | null;
  beforeAll(async () => {
    database = await createTestDatabase();
    accounts = await createDemoData(database.db, settings, new Date());
    subject = await createTestApp({ database });
  });
  afterAll(async () => {
    await subject.close();
    await database.drop();
  });

  const signedIn = async (account: DemoAccount) => {
    const browser = await subject.browser();
    const response = await browser.post('/api/login', { username: account.username, password: account.password });
    expect(response.statusCode, `${account.username}: ${response.body}`).toBe(200);
    return { browser, user: signedInResponse.parse(response.json()).user };
  };

  it('makes a personal user, a merchant user and a finance operator who sign in with the printed passwords', async () => {
    expect(accounts?.map((account) => [account.role, account.username])).toEqual([
      ['personal user', 'demo_personal'],
      ['merchant user', 'demo_merchant'],
      ['finance operator', 'demo_finance'],
    ]);
    const [personal, merchant, finance] = await Promise.all((accounts ?? []).map(signedIn));
    expect(personal?.user).toMatchObject({ user_type: 'personal', role: 'user' });
    expect(merchant?.user).toMatchObject({ user_type: 'business', role: 'user' });
    expect(merchant?.user.merchant_id).not.toBeNull();
    expect(finance?.user).toMatchObject({ role: 'finance' });

    const deposits = await finance?.browser.get('/api/operations/deposits');
    expect(pendingDepositsResponse.parse(deposits?.json()).deposits).toEqual([
      expect.objectContaining({ reference: 'PKSDEMO1', username: 'demo_personal' }),
    ]);
    expect((await personal?.browser.get('/api/operations/deposits'))?.statusCode).toBe(403);
  });

  it('stores the passwords only hashed, and prints each once', async () => {
    const rows = await database.db.selectFrom('users').select('password_hash').execute();
    for (const account of accounts ?? []) {
      expect(rows.some((row) => row.password_hash.includes(account.password))).toBe(false);
      expect(describeDemoAccounts(accounts ?? []).split(account.password)).toHaveLength(2);
    }
  });

  it('gives them a history that the ledger proves', async () => {
    const personal = await database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', 'demo_personal')
      .executeTakeFirstOrThrow();
    const con = (await walletsOf(database.db, userOwnerId(personal.user_id))).find(
      (wallet) => wallet.currency === 'CON',
    );
    // 500 funded, 25 and 40 sent, 15.50 received.
    expect(con?.total).toBe(500_00 - 25_00 - 40_00 + 15_50);
    const transfers = await database.db
      .selectFrom('ledger_transactions')
      .select('type')
      .where('type', 'in', ['transfer', 'sale'])
      .execute();
    expect(transfers).toHaveLength(3);
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  });

  it('does nothing on the next start', async () => {
    const count = async () =>
      (
        await database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('users'))
          .executeTakeFirstOrThrow()
      ).users;
    const before = await count();
    expect(await createDemoData(database.db, settings, new Date())).toBeNull();
    expect(await count()).toBe(before);
  });
});

describe('demo data with two processes starting together', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('is made by one of them', async () => {
    const results = await Promise.all([
      createDemoData(database.db, settings, new Date()),
      createDemoData(database.db, settings, new Date()),
    ]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await database.db.selectFrom('users').select('username').orderBy('user_id').execute()).toHaveLength(3);
  });
});
