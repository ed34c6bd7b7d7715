import { recipientResponse, signedInResponse, userListResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { businessSignUp, personalSignUp } from '../../testing/accounts.ts';
import { startsWith } from './queries.ts';

let subject: TestApp;
let searcher: TestBrowser;
const tag = Math.random().toString(36).slice(2, 8);
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
  searcher = (await register(`seeker_${tag}`)).browser;
});
afterAll(() => subject.close());

async function register(username: string) {
  const browser = await subject.browser();
  const signUp = personalSignUp({ username, email: `${username}@example.com` });
  const response = await browser.post('/api/register/personal', signUp);
  expect(response.statusCode).toBe(200);
  return { browser, user: signedInResponse.parse(response.json()).user };
}

const search = async (browser: TestBrowser, text: string) => {
  const response = await browser.get(`/api/user/user-list?search=${encodeURIComponent(text)}`);
  return { statusCode: response.statusCode, body: response.json<unknown>() };
};

describe('startsWith', () => {
  it('escapes LIKE wildcards so they match only themselves', () => {
    expect(startsWith('a_b%c\\')).toBe('a\\_b\\%c\\\\%');
  });
});

describe('GET /api/user/user-list', () => {
  it('finds users by username prefix, whatever the case, with only the recipient fields', async () => {
    const { user } = await register(`maple_${tag}_one`);
    const { statusCode, body } = await search(searcher, `MAPLE_${tag}`);
    expect(statusCode).toBe(200);
    const { users } = userListResponse.parse(body);
    expect(users).toEqual([
      {
        user_id: user.user_id,
        guser_id: user.guser_id,
        username: user.username,
        fullname: null,
        avatar: null,
        city: null,
        country: 'CA',
      },
    ]);
    const raw = JSON.stringify(body);
    expect(raw).not.toContain('@example.com');
    for (const secret of ['email', 'phone', 'birthday', 'password', 'perms', 'merchants'])
      expect(raw).not.toContain(`"${secret}"`);
  });

  it('treats _ in the search as itself, not as any character', async () => {
    await register(`under_${tag}`);
    await register(`underX${tag}`);
    const { users } = userListResponse.parse((await search(searcher, `under_${tag}`)).body);
    expect(users.map((each) => each.username)).toEqual([`under_${tag}`]);
  });

  it('finds by exact e-mail only, echoing the address as typed, never by e-mail prefix', async () => {
    const { user } = await register(`mailer_${tag}`);
    const typed = `MAILER_${tag}@example.com`;
    const exact = userListResponse.parse((await search(searcher, typed)).body);
    expect(exact.users).toEqual([expect.objectContaining({ user_id: user.user_id, email: typed })]);
    const prefix = userListResponse.parse((await search(searcher, `mailer_${tag}@exa`)).body);
    expect(prefix.users).toEqual([]);
  });

  it('leaves out the searcher and caps the results at 10', async () => {
    for (let index = 0; index < 12; index += 1) await register(`crowd_${tag}_${String(index).padStart(2, '0')}`);
    const { users } = userListResponse.parse((await search(searcher, `crowd_${tag}`)).body);
    expect(users).toHaveLength(10);
    const self = userListResponse.parse((await search(searcher, `seeker_${tag}`)).body);
    expect(self.users).toEqual([]);
  });

  it('refuses a search shorter than 3 characters or missing', async () => {
    expect(await search(searcher, 'ab')).toMatchObject({
      statusCode: 400,
      body: { errors: [{ field: 'search', message: 'Please enter at least 3 characters Username/Email' }] },
    });
    const missing = await searcher.get('/api/user/user-list');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      errors: [{ code: 4215, field: 'search', message: 'Please enter Username/Email' }],
    });
  });

  it('is 401 when signed out, before the query is even checked', async () => {
    const anonymous = await subject.browser();
    for (const url of [`/api/user/user-list?search=seeker_${tag}`, '/api/user/user-list']) {
      const response = await anonymous.get(url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ errors: [{ code: 40100 }] });
    }
  });
});

describe('GET /api/user/recipient-lookup', () => {
  const lookup = async (browser: TestBrowser, guserId: string) => {
    const response = await browser.get(`/api/user/recipient-lookup?guser_id=${encodeURIComponent(guserId)}`);
    return { statusCode: response.statusCode, body: response.json<unknown>() };
  };

  it('finds a user by global id with only the recipient fields', async () => {
    const { user } = await register(`payee_${tag}`);
    const { statusCode, body } = await lookup(searcher, user.guser_id);
    expect(statusCode).toBe(200);
    expect(recipientResponse.parse(body).user).toEqual({
      user_id: user.user_id,
      guser_id: user.guser_id,
      username: user.username,
      fullname: null,
      avatar: null,
      city: null,
      country: 'CA',
      shop_name: null,
    });
    expect(JSON.stringify(body)).not.toContain('@example.com');
  });

  it("names the shop a merchant's user is paid as (a scanned merchant QR code), by its display name", async () => {
    const browser = await subject.browser();
    const owner = businessSignUp({ username: `shopkeeper_${tag}`, email: `shopkeeper_${tag}@example.com` });
    const response = await browser.post('/api/register/business', owner);
    expect(response.statusCode, response.body).toBe(200);
    const { user } = signedInResponse.parse(response.json());
    const { statusCode, body } = await lookup(searcher, user.guser_id);
    expect(statusCode).toBe(200);
    expect(recipientResponse.parse(body).user.shop_name).toBe(owner.name);
  });

  it("answers 'User not found' for nobody, for oneself and for a disabled account", async () => {
    const { user: self, browser: selfBrowser } = await register(`selfish_${tag}`);
    const { user: disabled } = await register(`gone_${tag}`);
    await subject.database.db
      .updateTable('users')
      .set({ account_status: 'disabled' })
      .where('user_id', '=', disabled.user_id)
      .execute();
    for (const guserId of ['6f1c1f52-1b1c-4a52-9d0c-000000000000', disabled.guser_id]) {
      expect(await lookup(searcher, guserId)).toMatchObject({
        statusCode: 404,
        body: { errors: [{ code: 40440, field: 'guser_id', message: 'User not found' }] },
      });
    }
    expect((await lookup(selfBrowser, self.guser_id)).statusCode).toBe(404);
  });

  it('refuses a global id that is not a UUID', async () => {
    expect(await lookup(searcher, 'not-an-id')).toMatchObject({
      statusCode: 400,
      body: { errors: [{ field: 'guser_id', message: 'Please enter valid Recipient' }] },
    });
  });
});
