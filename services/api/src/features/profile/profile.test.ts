import {
  errorEnvelope,
  getUserPrefsResponse,
  signedInResponse,
  updateUserResponse,
  type SessionUser,
} from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { personalSignUp } from '../../testing/accounts.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    rateLimits: {
      passwordChange: { max: 1000, timeWindow: 60_000 },
      login: { max: 1000, timeWindow: 60_000 },
      registration: { max: 1000, timeWindow: 60_000 },
    },
  });
});
afterAll(() => subject.close());

/** A registered, signed-in user in its own browser. */
async function signedInUser(): Promise<{ signUp: Record<string, unknown>; user: SessionUser; browser: TestBrowser }> {
  const signUp = personalSignUp();
  const browser = await subject.browser();
  const registered = await browser.post('/api/register/personal', signUp);
  expect(registered.statusCode).toBe(200);
  return { signUp, user: signedInResponse.parse(registered.json()).user, browser };
}

const errorsOf = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;

const details = (userId: number, overrides: Record<string, unknown> = {}) => ({
  user_id: userId,
  prefix: 'Ms.',
  name_first: 'Anne',
  name_last: 'Tremblay',
  email: `anne.${String(userId)}@example.com`,
  phone: '6135550101',
  phone_region: '+1',
  country: 'CA',
  city: 'Ottawa',
  description: 'Coffee lover',
  ...overrides,
});

const passwordChange = (userId: number, overrides: Record<string, unknown> = {}) => ({
  id: userId,
  old_password: 'Secret12',
  new_password: 'Better34',
  new_password_repeat: 'Better34',
  ...overrides,
});

describe('POST /api/user/change-password', () => {
  it('changes the password, keeps this session, and ends the others', async () => {
    const { signUp, user, browser } = await signedInUser();
    const elsewhere = await subject.browser();
    expect((await elsewhere.post('/api/login', { username: signUp.username, password: 'Secret12' })).statusCode).toBe(
      200,
    );
    const response = await browser.post('/api/user/change-password', passwordChange(user.user_id));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ response: 'success', message: 'Password Updated successfully.' });
    expect((await browser.get('/api/session')).json()).toMatchObject({ user: { user_id: user.user_id } });
    expect((await elsewhere.get('/api/session')).json()).toMatchObject({ user: null });
    expect((await elsewhere.post('/api/login', { username: signUp.username, password: 'Secret12' })).statusCode).toBe(
      401,
    );
    expect((await elsewhere.post('/api/login', { username: signUp.username, password: 'Better34' })).statusCode).toBe(
      200,
    );
  });

  it('refuses a wrong current password with 3026 and changes nothing', async () => {
    const { signUp, user, browser } = await signedInUser();
    const response = await browser.post(
      '/api/user/change-password',
      passwordChange(user.user_id, { old_password: 'Wrong1234' }),
    );
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 3026, field: 'old_password', message: 'You have entered current password wrong ' },
    ]);
    const other = await subject.browser();
    expect((await other.post('/api/login', { username: signUp.username, password: 'Secret12' })).statusCode).toBe(200);
  });

  it.each([
    [{ old_password: undefined }, 'old_password', 'Please enter Old password'],
    [{ old_password: '' }, 'old_password', 'Please enter Old password'],
    [{ new_password: undefined }, 'new_password', 'Please enter New password'],
    [
      { new_password: 'Ab1', new_password_repeat: 'Ab1' },
      'new_password',
      'Please enter at least 8 characters New password',
    ],
    [
      { new_password: 'Abcdefgh12345', new_password_repeat: 'Abcdefgh12345' },
      'new_password',
      'Please enter at most 12 characters New password',
    ],
    [
      { new_password: 'abcdefgh1', new_password_repeat: 'abcdefgh1' },
      'new_password',
      'Please enter New password with mixed case of letters & numbers',
    ],
    [
      { new_password: 'ABCDEFGH1', new_password_repeat: 'ABCDEFGH1' },
      'new_password',
      'Please enter New password with mixed case of letters & numbers',
    ],
    [
      { new_password: 'Abcdefghi', new_password_repeat: 'Abcdefghi' },
      'new_password',
      'Please enter New password with mixed case of letters & numbers',
    ],
    [
      { new_password: 'Secret12', new_password_repeat: 'Secret12' },
      'new_password',
      'Current Password and New Password are same, Please try again',
    ],
    [{ new_password_repeat: undefined }, 'new_password_repeat', 'Please enter Confirm New password'],
    [
      { new_password_repeat: 'Better35' },
      'new_password_repeat',
      'New password and Confirm New password do not match, please try again.',
    ],
  ])('%j: 400 with %s "%s"', async (overrides, field, message) => {
    const { user, browser } = await signedInUser();
    const response = await browser.post('/api/user/change-password', passwordChange(user.user_id, overrides));
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContainEqual(expect.objectContaining({ field, message }));
  });
});

describe('POST /api/user/update-user', () => {
  it('saves the User Details and answers with the reloaded user', async () => {
    const { user, browser } = await signedInUser();
    const response = await browser.post('/api/user/update-user', details(user.user_id));
    expect(response.statusCode).toBe(200);
    const answer = updateUserResponse.parse(response.json());
    expect(answer.message).toBe('Profile Updated successfully.');
    expect(answer.user).toMatchObject({
      prefix: 'Ms.',
      name_first: 'Anne',
      name_last: 'Tremblay',
      fullname: 'Anne Tremblay',
      email: `anne.${String(user.user_id)}@example.com`,
      phone: '6135550101',
      phone_region: '+1',
      city: 'Ottawa',
      description: 'Coffee lover',
    });
    expect((await browser.get(`/api/user/user-lookup?id=${String(user.user_id)}`)).json()).toMatchObject({
      userInfo: { name_first: 'Anne' },
    });
  });

  it.each([
    [{ name_first: undefined }, 'name_first', 'Please enter First Name'],
    [{ name_first: 'A' }, 'name_first', 'Please enter at least 2 characters First Name'],
    [{ name_last: 'x'.repeat(65) }, 'name_last', 'Please enter at most 64 characters Last Name'],
    [{ email: '' }, 'email', 'Please enter Email'],
    [{ email: 'not-an-address' }, 'email', 'Please enter valid Email'],
    [{ phone: '' }, 'phone', 'Please enter Phone Number'],
    [{ phone: '613555010a' }, 'phone', 'Please enter valid Phone Number'],
    [{ phone: '613555' }, 'phone', 'Please enter 10 digit Phone Number'],
    [{ phone: '61355501011' }, 'phone', 'Sorry, 10 digit Phone Number accepted only'],
    [{ country: undefined }, 'country', 'Please select Country'],
    [{ prefix: 'Dr.' }, 'prefix', 'Please select Prefix'],
  ])('%j: 400 with %s "%s"', async (overrides, field, message) => {
    const { user, browser } = await signedInUser();
    const response = await browser.post('/api/user/update-user', details(user.user_id, overrides));
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContainEqual(expect.objectContaining({ field, message }));
  });

  it('refuses an e-mail another account has, in any case, with 409 and 4507', async () => {
    const first = await signedInUser();
    const { user, browser } = await signedInUser();
    const response = await browser.post(
      '/api/user/update-user',
      details(user.user_id, { email: String(first.signUp.email).toUpperCase() }),
    );
    expect(response.statusCode).toBe(409);
    expect(errorsOf(response)).toEqual([{ code: 4507, field: 'email', message: 'Email ID Is Already Exist' }]);
  });

  it('needs the UPDATE_USER permission: without it 403 and 1009, and nothing changes', async () => {
    const { user, browser } = await signedInUser();
    await subject.database.db.updateTable('users').set({ perms: [] }).where('user_id', '=', user.user_id).execute();
    const response = await browser.post('/api/user/update-user', details(user.user_id));
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)).toEqual([{ code: 1009, message: 'Not authorized to perform this action' }]);
    const row = await subject.database.db
      .selectFrom('users')
      .select('name_first')
      .where('user_id', '=', user.user_id)
      .executeTakeFirstOrThrow();
    expect(row.name_first).toBeNull();
  });
});

describe('notification preferences', () => {
  it('starts from the defaults, saves one toggle at a time, and reads back by section', async () => {
    const { user, browser } = await signedInUser();
    const initial = getUserPrefsResponse.parse(
      (await browser.post('/api/user/get-user-prefs', { user_id: user.user_id, section: ['all'] })).json(),
    );
    expect(initial.preferences.notifications?.deposit).toBe(true);
    expect(initial.preferences['notify-methods']).toEqual({ email: true, sms: false, push: true });

    const updated = await browser.post('/api/user/user-config-update', {
      user_id: user.user_id,
      config: { sms: true },
    });
    expect(updated.statusCode).toBe(200);
    expect(getUserPrefsResponse.parse(updated.json()).preferences['notify-methods']?.sms).toBe(true);
    await browser.post('/api/user/user-config-update', { user_id: user.user_id, config: { deposit: false } });

    const methods = getUserPrefsResponse.parse(
      (await browser.post('/api/user/get-user-prefs', { user_id: user.user_id, section: ['notify-methods'] })).json(),
    );
    expect(methods.preferences).toEqual({ 'notify-methods': { email: true, sms: true, push: true } });
    const all = getUserPrefsResponse.parse(
      (await browser.post('/api/user/get-user-prefs', { user_id: user.user_id })).json(),
    );
    expect(all.preferences.notifications?.deposit).toBe(false);
  });

  it.each([
    [{ config: { unknown_key: true } }],
    [{ config: { sms: true, email: false } }],
    [{ config: {} }],
    [{ config: { sms: 'yes' } }],
  ])('refuses %j with 400', async (body) => {
    const { user, browser } = await signedInUser();
    expect((await browser.post('/api/user/user-config-update', { user_id: user.user_id, ...body })).statusCode).toBe(
      400,
    );
  });
});

const routes: [string, (userId: number) => Record<string, unknown>][] = [
  ['/api/user/change-password', (userId) => passwordChange(userId)],
  ['/api/user/update-user', (userId) => details(userId)],
  ['/api/user/get-user-prefs', (userId) => ({ user_id: userId, section: ['all'] })],
  ['/api/user/user-config-update', (userId) => ({ user_id: userId, config: { sms: true } })],
];

describe.each(routes)('%s', (url, body) => {
  it('refuses a signed-out caller with 401', async () => {
    const browser = await subject.browser();
    const response = await browser.post(url, body(1));
    expect(response.statusCode).toBe(401);
    expect(errorsOf(response)[0]?.code).toBe(40100);
  });

  it('refuses a POST without the CSRF token with 403', async () => {
    const { user, browser } = await signedInUser();
    expect((await browser.request('POST', url, body(user.user_id), { 'x-csrf-token': '' })).statusCode).toBe(403);
  });

  it("answers another user's id with 404 and changes nothing of theirs", async () => {
    const victim = await signedInUser();
    const { browser } = await signedInUser();
    const response = await browser.post(url, body(victim.user.user_id));
    expect(response.statusCode).toBe(404);
    expect(errorsOf(response)[0]?.code).toBe(2501);
    const row = await subject.database.db
      .selectFrom('users')
      .select(['name_first', 'password_hash'])
      .where('user_id', '=', victim.user.user_id)
      .executeTakeFirstOrThrow();
    expect(row.name_first).toBeNull();
    const prefs = await subject.database.db
      .selectFrom('user_preferences')
      .selectAll()
      .where('user_id', '=', victim.user.user_id)
      .execute();
    expect(prefs).toEqual([]);
    expect(
      (await (await subject.browser()).post('/api/login', { username: victim.signUp.username, password: 'Secret12' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('change-password rate limit', () => {
  it('answers 429 once the limit is used', async () => {
    const limited = await createTestApp({
      database: subject.database,
      rateLimits: { passwordChange: { max: 2, timeWindow: 60_000 } },
    });
    try {
      const browser = await limited.browser('10.1.2.3');
      const registered = signedInResponse.parse(
        (await browser.post('/api/register/personal', personalSignUp())).json(),
      );
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await browser.post(
              '/api/user/change-password',
              passwordChange(registered.user.user_id, { old_password: 'Wrong1234' }),
            )
          ).statusCode,
        );
      expect(statuses).toEqual([422, 422, 429]);
    } finally {
      await limited.close();
    }
  });
});
