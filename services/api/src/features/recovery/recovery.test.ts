import { errorEnvelope, recoveryEmailResponse, signedInResponse } from '@peeks/contracts';
import { openEmailSecrets } from '@peeks/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { personalSignUp } from '../../testing/accounts.ts';
import { decoyMaskedEmail, maskEmail } from './recovery-code.ts';

let now = new Date('2030-01-01T09:00:00Z');
let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    clock: () => now,
    rateLimits: { recovery: { max: 1000, timeWindow: 60_000 }, registration: { max: 1000, timeWindow: 60_000 } },
  });
});
afterAll(() => subject.close());

const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

/** A registered account, signed out, and its signed-in second browser to watch for the session ending. */
async function account() {
  const signUp = personalSignUp();
  const other = await subject.browser();
  const registered = await other.post('/api/register/personal', signUp);
  expect(registered.statusCode).toBe(200);
  return {
    signUp,
    user: signedInResponse.parse(registered.json()).user,
    signedInElsewhere: other,
    browser: await subject.browser(),
  };
}

/** What the e-mail worker would send: the latest queued recovery code for the address. */
async function inbox(recipient: string): Promise<string> {
  const row = await subject.database.db
    .selectFrom('email_outbox')
    .select(['payload', 'template', 'sent_at'])
    .where('recipient', '=', recipient)
    .orderBy('email_id', 'desc')
    .executeTakeFirstOrThrow();
  expect(row.template).toBe('password-recovery-code');
  expect(row.sent_at).toBeNull();
  expect(JSON.stringify(row.payload)).not.toMatch(/"recovery_code":"\d{6}"/);
  return String((await openEmailSecrets(subject.database.db, row.payload as Record<string, unknown>)).recovery_code);
}

const errorsOf = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const send = (browser: TestBrowser, username: unknown) => browser.post('/api/user/send-recovery-code', { username });
const check = (browser: TestBrowser, username: unknown, recoveryCode: unknown) =>
  browser.post('/api/user/check-recovery-code', { username, recoveryCode });
const reset = (
  browser: TestBrowser,
  username: unknown,
  recoveryCode: unknown,
  password = 'NewPass12',
  confirm = password,
) =>
  browser.post('/api/user/reset-password', {
    username,
    recoveryCode,
    userPassword: password,
    confirmPassword: confirm,
  });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('the forgot-password steps', () => {
  it('shows the masked address, sends a hashed code, checks it, resets the password, and ends the other sessions', async () => {
    const { signUp, browser, signedInElsewhere } = await account();
    const email = await browser.post('/api/user/get-recovery-email', { username: signUp.username });
    expect(email.statusCode).toBe(200);
    expect(recoveryEmailResponse.parse(email.json()).email).toBe(maskEmail(String(signUp.email)));
    expect(recoveryEmailResponse.parse(email.json()).email).not.toContain(String(signUp.username).slice(1));

    expect((await send(browser, signUp.username)).statusCode).toBe(200);
    const code = await inbox(String(signUp.email));
    expect(code).toMatch(/^\d{6}$/);
    const stored = await subject.database.db.selectFrom('password_recovery_codes').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(subject.logLines.map((line) => JSON.stringify(line)).join('\n')).not.toContain(code);

    expect((await check(browser, signUp.username, code)).statusCode).toBe(200);
    const done = await reset(browser, signUp.username, code);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ response: 'success', message: 'Your Password has been changed successfully!' });

    expect((await signedInElsewhere.get('/api/session')).json()).toMatchObject({ user: null });
    expect(
      (await browser.post('/api/login', { username: signUp.username, password: signUp.password })).statusCode,
    ).toBe(401);
    expect((await browser.post('/api/login', { username: signUp.username, password: 'NewPass12' })).statusCode).toBe(
      200,
    );
  });

  it('refuses the code again after a reset', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const code = await inbox(String(signUp.email));
    await check(browser, signUp.username, code);
    expect((await reset(browser, signUp.username, code)).statusCode).toBe(200);
    const again = await reset(browser, signUp.username, code, 'Other123');
    expect(again.statusCode).toBe(422);
    expect(errorsOf(again)).toEqual([{ code: 42220, field: 'recoveryCode', message: 'Recovery Code is invalid' }]);
    expect((await check(browser, signUp.username, code)).statusCode).toBe(422);
  });

  it('refuses a reset whose code was never checked', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const response = await reset(browser, signUp.username, await inbox(String(signUp.email)));
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 42223, field: 'recoveryCode', message: 'Please verify the Recovery Code first' },
    ]);
  });

  it('answers a wrong code with 422 and 42220', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const response = await check(browser, signUp.username, wrong(await inbox(String(signUp.email))));
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([{ code: 42220, field: 'recoveryCode', message: 'Recovery Code is invalid' }]);
  });

  it('expires a code after 15 minutes', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const code = await inbox(String(signUp.email));
    advance(15 * 60_000 - 1);
    expect((await check(browser, signUp.username, code)).statusCode).toBe(200);
    advance(1);
    const expired = await reset(browser, signUp.username, code);
    expect(expired.statusCode).toBe(422);
    expect(errorsOf(expired)).toEqual([
      { code: 42221, field: 'recoveryCode', message: 'Recovery Code has expired, please send a new one' },
    ]);
    await send(browser, signUp.username);
    expect((await check(browser, signUp.username, await inbox(String(signUp.email)))).statusCode).toBe(200);
  });

  it('allows 5 tries per code; then even the right code needs a new one', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const code = await inbox(String(signUp.email));
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(errorsOf(await check(browser, signUp.username, wrong(code)))[0]?.code).toBe(42220);
    const blocked = await check(browser, signUp.username, code);
    expect(blocked.statusCode).toBe(422);
    expect(errorsOf(blocked)).toEqual([
      { code: 42222, field: 'recoveryCode', message: 'Too many wrong Recovery Codes, please send a new one' },
    ]);
    await send(browser, signUp.username);
    expect((await check(browser, signUp.username, await inbox(String(signUp.email)))).statusCode).toBe(200);
  });

  it('counts many wrong codes sent at once against the same 5 tries', async () => {
    const { signUp, browser } = await account();
    await send(browser, signUp.username);
    const code = await inbox(String(signUp.email));
    const answers = await Promise.all(Array.from({ length: 8 }, () => check(browser, signUp.username, wrong(code))));
    expect(answers.filter((answer) => errorsOf(answer)[0]?.code === 42220)).toHaveLength(5);
    expect((await check(browser, signUp.username, code)).statusCode).toBe(422);
  });
});

describe('who has an account is not told', () => {
  it('answers an unknown username like a known one: a masked address, "sent", and a wrong code', async () => {
    const browser = await subject.browser();
    const email = await browser.post('/api/user/get-recovery-email', { username: 'nobody_here' });
    expect(email.statusCode).toBe(200);
    expect(recoveryEmailResponse.parse(email.json()).email).toBe(decoyMaskedEmail('nobody_here'));
    expect(
      recoveryEmailResponse.parse(
        (await browser.post('/api/user/get-recovery-email', { username: 'NOBODY_here' })).json(),
      ).email,
    ).toBe(decoyMaskedEmail('nobody_here'));
    expect((await send(browser, 'nobody_here')).json()).toEqual({ response: 'success' });
    expect(errorsOf(await check(browser, 'nobody_here', '123456'))).toEqual([
      { code: 42220, field: 'recoveryCode', message: 'Recovery Code is invalid' },
    ]);
    const before = await subject.database.db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    await send(browser, 'nobody_there');
    const after = await subject.database.db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);
  });
});

describe('§5 Forgot password texts', () => {
  it.each([
    ['get-recovery-email', {}, 'username', 'Username is required'],
    ['send-recovery-code', { username: '  ' }, 'username', 'Username is required'],
    ['check-recovery-code', { username: 'someone_1' }, 'recoveryCode', 'Recovery Code is Required'],
    [
      'reset-password',
      { username: 'someone_1', recoveryCode: '123456', confirmPassword: 'x' },
      'userPassword',
      'Password is required',
    ],
    [
      'reset-password',
      { username: 'someone_1', recoveryCode: '123456', userPassword: 'NewPass12' },
      'confirmPassword',
      'Password is required',
    ],
    [
      'reset-password',
      { username: 'someone_1', recoveryCode: '123456', userPassword: 'NewPass12', confirmPassword: 'NewPass13' },
      'confirmPassword',
      'Passwords do not match',
    ],
    [
      'reset-password',
      { username: 'someone_1', recoveryCode: '123456', userPassword: 'Ab1', confirmPassword: 'Ab1' },
      'userPassword',
      'Please enter at least 8 characters Password',
    ],
    [
      'reset-password',
      {
        username: 'someone_1',
        recoveryCode: '123456',
        userPassword: 'Abcdefgh12345',
        confirmPassword: 'Abcdefgh12345',
      },
      'userPassword',
      'Please enter at most 12 characters Password',
    ],
    [
      'reset-password',
      { username: 'someone_1', recoveryCode: '123456', userPassword: 'abcdefgh1', confirmPassword: 'abcdefgh1' },
      'userPassword',
      'Please enter Password with mixed case of letters & numbers',
    ],
  ])('%s %j: 400 with %s "%s"', async (call, body, field, message) => {
    const browser = await subject.browser();
    const response = await browser.post(`/api/user/${call}`, body);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContainEqual(expect.objectContaining({ field, message }));
  });
});

describe('every recovery call', () => {
  const calls = ['get-recovery-email', 'send-recovery-code', 'check-recovery-code', 'reset-password'];

  it.each(calls)('%s refuses a POST without the CSRF token with 403', async (call) => {
    const browser = await subject.browser();
    const response = await browser.request(
      'POST',
      `/api/user/${call}`,
      { username: 'someone_1' },
      { 'x-csrf-token': '' },
    );
    expect(response.statusCode).toBe(403);
  });

  it.each(calls)('%s is rate-limited per client address with 429', async (call) => {
    const limited = await createTestApp({
      database: subject.database,
      rateLimits: { recovery: { max: 2, timeWindow: 60_000 } },
    });
    try {
      const browser = await limited.browser('10.9.8.7');
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await browser.post(`/api/user/${call}`, { username: 'nobody_here', recoveryCode: '1' })).statusCode,
        );
      expect(statuses[2]).toBe(429);
      expect(statuses.slice(0, 2)).not.toContain(429);
    } finally {
      await limited.close();
    }
  });
});
