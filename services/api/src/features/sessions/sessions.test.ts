import { SESSION_COOKIE } from '../../plugins/sessions.ts';
import { createHash } from 'node:crypto';
import { errorEnvelope, sessionResponse, signedInResponse } from '@peeks/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../plugins/sessions.ts';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { businessSignUp, personalSignUp } from '../../testing/accounts.ts';
import { hashPassword } from '../accounts/index.ts';

let now = new Date('2030-01-01T09:00:00Z');
let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({ clock: () => now, rateLimits: { login: { max: 1000, timeWindow: 60_000 } } });
});
afterAll(() => subject.close());

const minutes = (count: number) => count * 60_000;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

/** A registered account, signed out, and a fresh browser to sign in with. */
async function account(signUp = personalSignUp()) {
  const registering = await subject.browser();
  const registered = await registering.post(
    'name' in signUp ? '/api/register/business' : '/api/register/personal',
    signUp,
  );
  expect(registered.statusCode).toBe(200);
  expect((await registering.post('/api/logout')).statusCode).toBe(200);
  return { signUp, user: signedInResponse.parse(registered.json()).user, browser: await subject.browser() };
}

const login = (browser: TestBrowser, username: unknown, password: unknown) =>
  browser.post('/api/login', { username, password });

describe('GET /api/session', () => {
  it('opens an anonymous session: no user, a CSRF token, an HttpOnly SameSite=Lax Secure cookie', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/session' });
    expect(response.statusCode).toBe(200);
    const answer = sessionResponse.parse(response.json());
    expect(answer.user).toBeNull();
    expect(answer.csrfToken).toMatch(/^[\w-]{43}$/);
    const cookie = response.cookies.find((each) => each.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' });
  });

  it('stores only the SHA-256 of the cookie value', async () => {
    const browser = await subject.browser();
    const rows = await sql<{
      session_key: Buffer;
      csrf_token: string;
    }>`SELECT session_key, csrf_token FROM sessions`.execute(subject.database.db);
    const hashed = createHash('sha256').update(browser.cookie!).digest();
    expect(rows.rows.some((row) => row.session_key.equals(hashed))).toBe(true);
    expect(JSON.stringify(rows.rows)).not.toContain(browser.cookie!);
  });

  it('keeps the session it was sent', async () => {
    const browser = await subject.browser();
    const { cookie, csrfToken } = browser;
    await browser.get('/api/session');
    expect([browser.cookie, browser.csrfToken]).toEqual([cookie, csrfToken]);
  });
});

describe('CSRF', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { 'x-csrf-token': 'x'.repeat(43) }],
  ])('refuses a POST with %s with 403', async (_name, headers) => {
    const { signUp, browser } = await account();
    const response = await browser.request(
      'POST',
      '/api/login',
      { username: signUp.username, password: signUp.password },
      { 'x-csrf-token': '', ...headers },
    );
    expect(response.statusCode).toBe(403);
    expect(errorEnvelope.parse(response.json()).errors).toEqual([
      { code: 40300, message: 'Invalid or missing CSRF token; reload the page and try again' },
    ]);
    expect(browser.csrfToken).toBeDefined();
  });

  it("refuses another session's token", async () => {
    const { signUp, browser } = await account();
    const other = await subject.browser();
    const response = await browser.request(
      'POST',
      '/api/login',
      { username: signUp.username, password: signUp.password },
      { 'x-csrf-token': other.csrfToken! },
    );
    expect(response.statusCode).toBe(403);
  });

  it('refuses a POST with no session at all', async () => {
    const response = await subject.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'x-csrf-token': 'anything' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/login', () => {
  it('signs in by username or by e-mail in any case, on a new session id and CSRF token', async () => {
    const { signUp, user, browser } = await account();
    const anonymous = { cookie: browser.cookie, csrfToken: browser.csrfToken };
    const response = await login(browser, String(signUp.email).toUpperCase(), signUp.password);
    expect(response.statusCode).toBe(200);
    expect(signedInResponse.parse(response.json()).user.user_id).toBe(user.user_id);
    expect(browser.cookie).not.toBe(anonymous.cookie);
    expect(browser.csrfToken).not.toBe(anonymous.csrfToken);

    // The id the browser had before signing in is gone (session fixation).
    const planted = await subject.app.inject({
      method: 'GET',
      url: '/api/user/user-lookup',
      query: { id: String(user.user_id) },
      cookies: { [SESSION_COOKIE]: anonymous.cookie! },
    });
    expect(planted.statusCode).toBe(401);

    const again = await subject.browser();
    expect((await login(again, signUp.username, signUp.password)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown name alike, with 401 and 1006', async () => {
    const { signUp, browser } = await account();
    const wrong = await login(browser, signUp.username, 'Secret99');
    const unknown = await login(browser, 'nobody_here', signUp.password);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        response: 'error',
        request_id: expect.any(String) as string,
        message: 'Incorrect Username/Email or Password',
        errors: [{ code: 1006, message: 'Incorrect Username/Email or Password' }],
      });
    }
    expect(sessionResponse.parse((await browser.get('/api/session')).json()).user).toBeNull();
  });

  it.each([
    ['username', undefined, 'Please enter Username/Email'],
    ['username', '   ', 'Please enter Username/Email'],
    ['username', `${'a'.repeat(60)}@b.com`, 'Please enter at most 64 characters Username/Email'],
    ['password', undefined, 'Please enter Password'],
    ['password', 'Abc12', 'Password must have at least 6 characters'],
    ['password', 'A'.repeat(65), 'Please enter at most 64 characters Password'],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const browser = await subject.browser();
    const response = await browser.post('/api/login', { username: 'someone', password: 'Secret12', [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field, message }] });
  });

  it('tells a disabled or banned account only after the right password', async () => {
    const { signUp, user, browser } = await account();
    await subject.database.db
      .updateTable('users')
      .set({ account_status: 'disabled' })
      .where('user_id', '=', user.user_id)
      .execute();
    expect((await login(browser, signUp.username, 'Secret99')).statusCode).toBe(401);
    const disabled = await login(browser, signUp.username, signUp.password);
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toMatchObject({
      errors: [{ code: 2519, message: 'Account deactivated or disabled, contact support to reactivate' }],
    });
    await subject.database.db
      .updateTable('users')
      .set({ account_status: 'active', is_banned: true })
      .where('user_id', '=', user.user_id)
      .execute();
    expect((await login(browser, signUp.username, signUp.password)).json()).toMatchObject({ errors: [{ code: 4515 }] });
  });

  it('rehashes a password stored with weaker parameters', async () => {
    const { signUp, user, browser } = await account();
    const weak = await hashPassword(String(signUp.password), { memory: 8192, passes: 1, parallelism: 1 });
    await subject.database.db
      .updateTable('users')
      .set({ password_hash: weak })
      .where('user_id', '=', user.user_id)
      .execute();
    expect((await login(browser, signUp.username, signUp.password)).statusCode).toBe(200);
    const { password_hash } = await subject.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('user_id', '=', user.user_id)
      .executeTakeFirstOrThrow();
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('signed-in routes', () => {
  it.each([
    ['GET', '/api/user/user-lookup?id=1'],
    ['GET', '/api/user/perm?id=1'],
    ['GET', '/api/user/merchant-lookup?id=1'],
    ['POST', '/api/merchant/switch-merchant'],
  ] as const)('answer %s %s with 401 to an anonymous session', async (method, url) => {
    const browser = await subject.browser();
    const response = await browser.request(method, url, method === 'POST' ? { merchant_id: 1 } : undefined);
    expect(response.statusCode).toBe(401);
    expect(errorEnvelope.parse(response.json()).errors).toEqual([{ code: 40100, message: 'Please sign in' }]);
  });

  it('look up only the signed-in user: another id is 404', async () => {
    const { signUp, user, browser } = await account();
    await login(browser, signUp.username, signUp.password);
    const own = await browser.get(`/api/user/user-lookup/?id=${String(user.user_id)}`);
    expect(own.json()).toMatchObject({
      response: 'success',
      userInfo: { user_id: user.user_id, username: signUp.username },
    });
    expect((await browser.get(`/api/user/perm?id=${String(user.user_id)}`)).json()).toEqual({
      response: 'success',
      permissions: ['UPDATE_USER'],
      merchant_permissions: [],
    });
    const other = await browser.get(`/api/user/user-lookup?id=${String(user.user_id + 1000)}`);
    expect([other.statusCode, other.json()]).toEqual([
      404,
      expect.objectContaining({ errors: [{ code: 2501, message: "User doesn't exist" }] }),
    ]);
    expect((await browser.get('/api/user/user-lookup?id=abc')).statusCode).toBe(400);
  });
});

describe('idle expiry', () => {
  it('keeps a session alive while it is used and ends it after 30 idle minutes', async () => {
    const { signUp, user, browser } = await account();
    await login(browser, signUp.username, signUp.password);
    const lookup = () => browser.get(`/api/user/user-lookup?id=${String(user.user_id)}`);
    advance(minutes(29));
    expect((await lookup()).statusCode).toBe(200);
    advance(minutes(29));
    expect((await lookup()).statusCode).toBe(200);
    advance(SESSION_IDLE_MS + 1);
    expect((await lookup()).statusCode).toBe(401);
    expect(sessionResponse.parse((await browser.get('/api/session')).json()).user).toBeNull();
  });
});

describe('POST /api/logout', () => {
  it('ends the session and clears the cookie', async () => {
    const { signUp, user, browser } = await account();
    await login(browser, signUp.username, signUp.password);
    const signedInCookie = browser.cookie;
    const response = await browser.post('/api/logout');
    expect([response.statusCode, response.json()]).toEqual([200, { response: 'success' }]);
    expect(browser.cookie).toBeUndefined();
    const replayed = await subject.app.inject({
      method: 'GET',
      url: `/api/user/user-lookup?id=${String(user.user_id)}`,
      cookies: { [SESSION_COOKIE]: signedInCookie! },
    });
    expect(replayed.statusCode).toBe(401);
  });
});

describe('a session ended in another process', () => {
  it('stops answering moments after the row is gone, though this process had it cached', async () => {
    const { signUp, user, browser } = await account();
    await login(browser, signUp.username, signUp.password);
    const lookup = () => browser.get(`/api/user/user-lookup?id=${String(user.user_id)}`);
    expect((await lookup()).statusCode).toBe(200);
    // As another API process's logout or password change leaves it.
    await subject.database.db.deleteFrom('sessions').where('user_id', '=', user.user_id).execute();
    let status = 200;
    for (let tries = 0; tries < 100 && status === 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await lookup()).statusCode;
    }
    expect(status).toBe(401);
  });
});

describe('switch-merchant', () => {
  it('acts for another merchant of the user, and refuses one the user does not belong to with 404', async () => {
    const [owner, partner, outsider] = [
      await account(businessSignUp()),
      await account(businessSignUp()),
      await account(businessSignUp()),
    ];
    await subject.database.db
      .insertInto('merchant_users')
      .values({
        merchant_id: partner.user.merchant_id!,
        user_id: owner.user.user_id,
        perms: ['MANAGE_WEBHOOKS'],
        created_at: now,
      })
      .execute();
    const { browser } = owner;
    const signedIn = signedInResponse.parse(
      (await login(browser, owner.signUp.username, owner.signUp.password)).json(),
    ).user;
    expect(signedIn.merchant_id).toBe(owner.user.merchant_id);
    expect(Object.keys(signedIn.merchants).sort()).toEqual(
      [String(owner.user.merchant_id), String(partner.user.merchant_id)].sort(),
    );

    const switched = await browser.post('/api/merchant/switch-merchant/', { merchant_id: partner.user.merchant_id });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ user: { merchant_id: partner.user.merchant_id } });
    expect(sessionResponse.parse((await browser.get('/api/session')).json()).user?.merchant_id).toBe(
      partner.user.merchant_id,
    );
    expect((await browser.get(`/api/user/perm?id=${String(owner.user.user_id)}`)).json()).toMatchObject({
      merchant_permissions: ['MANAGE_WEBHOOKS'],
    });

    const refused = await browser.post('/api/merchant/switch-merchant', { merchant_id: outsider.user.merchant_id });
    expect([refused.statusCode, refused.json()]).toEqual([
      404,
      expect.objectContaining({ errors: [{ code: 40403, message: 'Merchant does not exist' }] }),
    ]);
    expect((await browser.get(`/api/user/merchant-lookup?id=${String(outsider.user.merchant_id)}`)).statusCode).toBe(
      404,
    );
    expect(sessionResponse.parse((await browser.get('/api/session')).json()).user?.merchant_id).toBe(
      partner.user.merchant_id,
    );
  });

  it('refuses a personal user with 404', async () => {
    const merchant = await account(businessSignUp());
    const { signUp, browser } = await account();
    await login(browser, signUp.username, signUp.password);
    expect(
      (await browser.post('/api/merchant/switch-merchant', { merchant_id: merchant.user.merchant_id })).statusCode,
    ).toBe(404);
  });
});
