import { errorCodes } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as accounts from '../accounts/index.ts';
import { verifyPassword } from '../accounts/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { personalSignUp, queuedRecoveryCode } from '../../testing/accounts.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { ACCOUNT_RULE, ADDRESS_RULE, delayAfter } from './sign-in-throttle.ts';

// The real check, watched: how many passwords were checked is counted, not inferred from the answers.
vi.mock('../accounts/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof accounts>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const passwordChecks = vi.mocked(verifyPassword);

let now = new Date('2030-03-01T09:00:00Z');
let subject: TestApp;
const generous = { max: 1_000_000, timeWindow: 60_000 };
beforeAll(async () => {
  subject = await createTestApp({
    clock: () => now,
    rateLimits: { login: generous, registration: generous, recovery: generous },
  });
});
afterAll(() => subject.close());

const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const addressNo = (n: number) => `198.51.100.${n}`;

async function registered(from = '203.0.113.1') {
  const signUp = personalSignUp();
  const browser = await subject.browser(from);
  expect((await browser.post('/api/register/personal', signUp)).statusCode).toBe(200);
  return { username: String(signUp.username), password: String(signUp.password), email: String(signUp.email) };
}
const login = async (address: string, username: string, password: string) =>
  (await subject.browser(address)).post('/api/login', { username, password });

describe('per-account sign-in throttling (issue 21, item 2)', () => {
  it('stops 60 wrong passwords from 60 addresses: the right one from a new address then waits (429), not 200', async () => {
    const account = await registered();
    const statuses: number[] = [];
    for (let n = 1; n <= 60; n += 1)
      statuses.push((await login(addressNo(n), account.username, 'Wrong1234')).statusCode);
    expect(statuses.slice(0, ACCOUNT_RULE.freeTries)).toEqual(Array(ACCOUNT_RULE.freeTries).fill(401));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(45);
    const right = await login(addressNo(61), account.username, account.password);
    expectRefusal(right, 429, errorCodes.tooManyRequests, 'the right password during the lock');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not lock the owner out from an address they signed in from before, and lets others in once the delay passes', async () => {
    const account = await registered();
    expect((await login('203.0.113.9', account.username, account.password)).statusCode).toBe(200);
    for (let n = 1; n <= 30; n += 1) await login(addressNo(n), account.username, 'Wrong1234');
    expect((await login('203.0.113.9', account.username, account.password)).statusCode).toBe(200);
    expect((await login('203.0.113.77', account.username, account.password)).statusCode).toBe(429);
    advance(ACCOUNT_RULE.capMs + 1000);
    expect((await login('203.0.113.77', account.username, account.password)).statusCode).toBe(200);
  });

  it('checks at most 10 of 40 wrong passwords sent at once from 40 addresses; the rest wait (issue 33, finding 3)', async () => {
    const account = await registered();
    passwordChecks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => login(addressNo(150 + n), account.username, 'Wrong1234')),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // The bar, not the rule's setting: at most 10 of the 40 passwords are checked at all.
    expect(passwordChecks).toHaveBeenCalledTimes(10);
    expect(ACCOUNT_RULE.freeTries).toBe(10);
    // Each 401 is a password that was checked: the lock counts an attempt before the check, never after.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    for (const answer of answers.filter((each) => each.statusCode === 429))
      expectRefusal(answer, 429, errorCodes.tooManyRequests, 'a guess during the lock');

    const right = await login(addressNo(200), account.username, account.password);
    expectRefusal(right, 429, errorCodes.tooManyRequests, 'the right password during the lock');
    // The tenth wrong password locked the account for delayAfter(10) = 1 s; the refusals did not lengthen it.
    advance(delayAfter(ACCOUNT_RULE.freeTries, ACCOUNT_RULE) + 1);
    expect((await login(addressNo(200), account.username, account.password)).statusCode).toBe(200);
  });

  it('does not count a right password against the account: ten right sign-ins in a row all get in', async () => {
    const account = await registered();
    for (let n = 1; n <= 9; n += 1) await login(addressNo(210 + n), account.username, 'Wrong1234');
    for (let n = 1; n <= ACCOUNT_RULE.freeTries; n += 1)
      expect((await login(addressNo(220 + n), account.username, account.password)).statusCode).toBe(200);
    expect((await login(addressNo(240), account.username, 'Wrong1234')).statusCode).toBe(401);
    expect((await login(addressNo(241), account.username, account.password)).statusCode).toBe(429);
  });

  it('slows one address guessing at one account after its free tries, with doubling delays', async () => {
    const account = await registered();
    for (let n = 0; n < ADDRESS_RULE.freeTries; n += 1)
      expect((await login('192.0.2.5', account.username, 'Wrong1234')).statusCode).toBe(401);
    expect((await login('192.0.2.5', account.username, account.password)).statusCode).toBe(429);
    expect([5, 6, 10, 15].map((failures) => delayAfter(failures, ADDRESS_RULE))).toEqual([1000, 2000, 32_000, 900_000]);
    expect(delayAfter(9, ACCOUNT_RULE)).toBe(0);
  });
});

describe('recovery codes per account (issue 21, item 2)', () => {
  it('sends at most 5 codes an hour to one account, from 40 addresses, and answers the same to all of them', async () => {
    const account = await registered();
    for (let n = 1; n <= 40; n += 1) {
      const browser = await subject.browser(addressNo(100 + n));
      expect((await browser.post('/api/user/send-recovery-code', { username: account.username })).statusCode).toBe(200);
    }
    const sent = await subject.database.db
      .selectFrom('email_outbox')
      .select('payload')
      .where('recipient', '=', account.email)
      .execute();
    expect(sent).toHaveLength(5);
    // Sealed at rest: the code is nowhere in the row, yet the worker can open it. (Not "no six digits":
    // a random username can hold six.)
    const code = await queuedRecoveryCode(subject.database.db, account.email);
    expect(code).toMatch(/^\d{6}$/);
    for (const row of sent) {
      expect((row.payload as { recovery_code?: unknown }).recovery_code).toMatch(/^sealed:v1:/);
      expect(JSON.stringify(row.payload)).not.toContain(code);
    }
    advance(60 * 60_000 + 1000);
    await (await subject.browser()).post('/api/user/send-recovery-code', { username: account.username });
    expect(
      await subject.database.db
        .selectFrom('email_outbox')
        .select('email_id')
        .where('recipient', '=', account.email)
        .execute(),
    ).toHaveLength(6);
  });
});
