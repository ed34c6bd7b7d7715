import { errorEnvelope, merchantLookupResponse, signedInResponse } from '@peeks/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { businessSignUp, personalSignUp } from '../../testing/accounts.ts';

let subject: TestApp;
let browser: TestBrowser;
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
  browser = await subject.browser();
});
afterAll(() => subject.close());

/** "DD-MM-YYYY" of today's date, `years` back, moved by `days`. */
function yearsAgo(years: number, days = 0): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;
}

async function refusal(url: string, body: Record<string, unknown>, field: string) {
  const response = await browser.post(url, body);
  const answer = response.json<{ response: string; errors: { code: number; field?: string; message: string }[] }>();
  expect(answer.response).toBe('error');
  return { statusCode: response.statusCode, problem: answer.errors.find((error) => error.field === field) };
}

describe('POST /api/user/user-register, the other name the spec gives personal registration', () => {
  it('answers as /api/register/personal does: the account made and signed in, the same refusals', async () => {
    const signUp = personalSignUp();
    const other = await subject.browser();
    const response = await other.post('/api/user/user-register', signUp);
    expect(response.statusCode, response.body).toBe(200);
    const answer = signedInResponse.parse(response.json());
    expect(answer.user).toMatchObject({ username: signUp.username, email: signUp.email, user_type: 'personal' });
    expect((await other.get('/api/session')).json()).toMatchObject({ user: { user_id: answer.user.user_id } });

    const again = await other.post('/api/user/user-register', signUp);
    const twin = await other.post('/api/register/personal', signUp);
    expect(again.statusCode).toBe(409);
    // The same answer but for the request's own id.
    const answered = (response: { json: () => unknown }) => ({ ...(response.json() as object), request_id: 'any' });
    expect([again.statusCode, answered(again)]).toEqual([twin.statusCode, answered(twin)]);
    const short = await other.post('/api/user/user-register', personalSignUp({ username: 'ab' }));
    const shortTwin = await other.post('/api/register/personal', personalSignUp({ username: 'ab' }));
    expect(short.statusCode).toBe(400);
    expect(answered(short)).toEqual(answered(shortTwin));
  });

  it('is described in the OpenAPI document beside /api/register/personal, with the same request body', () => {
    const document = subject.app.swagger() as {
      paths: Record<string, { post?: { operationId: string; requestBody?: unknown } }>;
    };
    const twin = document.paths['/api/user/user-register']?.post;
    expect(twin?.operationId).toBe('userRegister');
    expect(twin?.requestBody).toEqual(document.paths['/api/register/personal']?.post?.requestBody);
  });
});

describe('POST /api/register/personal', () => {
  it('creates the account, signs it in on a new session, and keeps only an argon2id hash of the password', async () => {
    const signUp = personalSignUp();
    const before = browser.cookie;
    const response = await browser.post('/api/register/personal', signUp);
    expect(response.statusCode).toBe(200);
    const answer = signedInResponse.parse(response.json());
    expect(answer.user).toMatchObject({
      username: signUp.username,
      email: signUp.email,
      birthday: '15-06-1990',
      country: 'CA',
      currency: 'CAD',
      user_type: 'personal',
      merchant_id: null,
      merchants: {},
      perms: ['UPDATE_USER'],
    });
    expect(browser.cookie).not.toBe(before);
    expect((await browser.get('/api/session')).json()).toMatchObject({ user: { user_id: answer.user.user_id } });

    const { password_hash } = await subject.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('user_id', '=', answer.user.user_id)
      .executeTakeFirstOrThrow();
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(password_hash).not.toContain(String(signUp.password));
  });

  it.each([
    ['username', undefined, 4215, 'Please enter Username'],
    ['username', 'abc12', 4002, 'Please enter at least 6 characters Username'],
    ['username', 'a'.repeat(65), 4002, 'Please enter at most 64 characters Username'],
    ['username', 'bad-name', 4002, 'Please enter valid Username'],
    ['username', 'i_love_PeEkS', 4002, 'Username must not contain the word Peeks'],
    ['username', 12345678, 4002, 'Please enter valid Username'],
    ['email', undefined, 4215, 'Please enter Email'],
    ['email', 'not-an-email', 4002, 'Please enter valid Email'],
    ['email', `${'a'.repeat(60)}@example.com`, 4002, 'Please enter at most 64 characters Email'],
    ['password', undefined, 4215, 'Please enter Password'],
    ['password', 'Abc1234', 4002, 'Please enter at least 8 characters Password'],
    ['password', 'Abcdefgh12345', 4002, 'Please enter at most 12 characters Password'],
    ['password', 'abcdefg1', 4002, 'Please enter Password with mixed case of letters & numbers'],
    ['password', 'ABCDEFG1', 4002, 'Please enter Password with mixed case of letters & numbers'],
    ['password', 'Abcdefgh', 4002, 'Please enter Password with mixed case of letters & numbers'],
    ['confirm_password', undefined, 4215, 'Please enter Confirm Password'],
    ['confirm_password', 'Secret13', 4002, 'Password and Confirm password do not match, please try again.'],
    ['birthday', undefined, 4215, 'Please enter Birth Date'],
    ['birthday', '1990-06-15', 4018, 'Please enter valid Birth Date'],
    ['birthday', '31-02-1990', 4018, 'Please enter valid Birth Date'],
    ['birthday', yearsAgo(18, 1), 4018, 'You must be at least 18 years old to register'],
    ['birthday', yearsAgo(-1), 4018, 'Please enter valid Birth Date'],
    ['country', undefined, 4215, 'Please select Country'],
    ['country', 'Canada', 4002, 'Please select Country'],
    ['termsAccepted', 0, 4002, 'Please accept terms and conditions'],
    ['termsAccepted', undefined, 4215, 'Please accept terms and conditions'],
  ])('refuses %s = %j with %i "%s"', async (field, value, code, message) => {
    const { statusCode, problem } = await refusal('/api/register/personal', personalSignUp({ [field]: value }), field);
    expect(statusCode).toBe(400);
    expect(problem).toEqual({ code, field, message });
  });

  it('asks for the password first when only the confirmation is given', async () => {
    const { problem } = await refusal('/api/register/personal', personalSignUp({ password: '' }), 'confirm_password');
    expect(problem?.message).toBe('Please enter Password first');
  });

  it('takes a birthday exactly 18 years ago', async () => {
    expect((await browser.post('/api/register/personal', personalSignUp({ birthday: yearsAgo(18) }))).statusCode).toBe(
      200,
    );
  });

  it('refuses a taken username and a taken e-mail, whatever their case, with 409 under each field', async () => {
    const first = personalSignUp();
    expect((await browser.post('/api/register/personal', first)).statusCode).toBe(200);
    const again = personalSignUp({
      username: String(first.username).toUpperCase(),
      email: String(first.email).toUpperCase(),
    });
    const response = await browser.post('/api/register/personal', again);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: 'Username Already Exist. Email ID Is Already Exist',
      errors: [
        { code: 4503, field: 'username', message: 'Username Already Exist' },
        { code: 4507, field: 'email', message: 'Email ID Is Already Exist' },
      ],
    });
  });

  it('answers two concurrent sign-ups with one name with one account and one 409', async () => {
    const signUp = personalSignUp();
    const [a, b] = await Promise.all([subject.browser(), subject.browser()]);
    const answers = await Promise.all([
      a.post('/api/register/personal', signUp),
      b.post('/api/register/personal', { ...signUp, email: `x${String(signUp.email)}` }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({
      errors: [{ code: 4503, field: 'username' }],
    });
  });
});

describe('POST /api/register/business', () => {
  it('creates the user, the merchant and the membership, and acts for the new merchant', async () => {
    const response = await browser.post('/api/register/business', businessSignUp());
    expect(response.statusCode).toBe(200);
    const { user } = signedInResponse.parse(response.json());
    expect(user.user_type).toBe('business');
    expect(user.merchant_id).toEqual(expect.any(Number));
    expect(user.merchants).toEqual({ [String(user.merchant_id)]: 'Maple Coffee' });

    const lookup = await browser.get(`/api/user/merchant-lookup/?id=${String(user.merchant_id)}`);
    expect(lookup.statusCode).toBe(200);
    const { merchantInfo } = merchantLookupResponse.parse(lookup.json());
    expect(merchantInfo).toMatchObject({
      name: 'Maple Coffee',
      dba: 'Maple Coffee Ltd',
      address: { city: 'Ottawa', province: 'ON', postal_code: 'K1A 0B1', country: 'CA' },
    });
    expect(merchantInfo.perms).toContain('UPDATE_MERCHANT');
  });

  it("takes every phone in the spec's wire form, split into the number and its region", async () => {
    const signUp = businessSignUp({
      phone: '+14165550123',
      support_phone: '+442071838750',
      contact_phone: '+16135550100',
      owner_phone: '+336123456789',
      address: { ...(businessSignUp().address as Record<string, unknown>), phone: '+16135550111' },
    });
    const response = await browser.post('/api/register/business', signUp);
    expect(response.statusCode, response.body).toBe(200);
    const { user } = signedInResponse.parse(response.json());
    const merchant = await subject.database.db
      .selectFrom('merchants')
      .select([
        'phone',
        'phone_region',
        'support_phone',
        'support_phone_region',
        'contact_phone',
        'contact_phone_region',
        'owner_phone',
        'owner_phone_region',
        'address_phone',
      ])
      .where('merchant_id', '=', user.merchant_id ?? 0)
      .executeTakeFirstOrThrow();
    expect(merchant).toEqual({
      phone: '4165550123',
      phone_region: '+1',
      support_phone: '2071838750',
      support_phone_region: '+44',
      contact_phone: '6135550100',
      contact_phone_region: '+1',
      owner_phone: '6123456789',
      owner_phone_region: '+33',
      address_phone: '6135550111',
    });
  });

  const address = (overrides: Record<string, unknown>) => ({
    ...(businessSignUp().address as Record<string, unknown>),
    ...overrides,
  });

  it.each([
    ['name', 'M', 'Please enter at least 2 characters Name'],
    ['dba', undefined, 'Please enter DBA'],
    ['website', 'maple coffee', 'Please enter valid Website'],
    ['website', 'ftp://maple.example.com', 'Please enter valid Website'],
    ['category_id', undefined, 'Please select Category'],
    ['sub_category_id', '12', 'Please select Sub Category'],
    ['business_type', 'llc', 'Please select Business Type'],
    ['date_established', '2015-03-01', 'Please enter valid Date Established'],
    ['monthly_sales', '2500', 'Please enter valid Monthly Sales'],
    ['business_number', '12-345', 'Please enter valid Business Number'],
    ['business_number', '1', 'Please enter at least 2 characters Business Number'],
    ['business_country', undefined, 'Please select Business Country'],
    ['phone', '613555010', 'Please enter 10 digit Phone Number'],
    ['phone', '61355501011', 'Sorry, 10 digit Phone Number accepted only'],
    ['phone', '613-555-01', 'Please enter valid Phone Number'],
    ['support_url', 'help', 'Please enter valid Support Url'],
    ['support_phone', undefined, 'Please enter Support Phone'],
    ['support_email', 'help@', 'Please enter valid Support Email'],
    ['contact_name', 'A', 'Please enter at least 2 characters Contact Name'],
    ['contact_email', undefined, 'Please enter Contact Email'],
    ['contact_phone', '12345678901', 'Sorry, 10 digit Contact Phone accepted only'],
    ['owner_citizenship', 'x'.repeat(65), 'Please enter at most 64 characters Owner Citizenship'],
    ['owner_dob', '30-02-1980', 'Please enter valid Owner Birth Date'],
    ['owner_name', undefined, 'Please enter Owner Name'],
    ['owner_phone', '123', 'Please enter 10 digit Owner Phone'],
    ['owner_email', 'owner', 'Please enter valid Owner Email'],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const { statusCode, problem } = await refusal('/api/register/business', businessSignUp({ [field]: value }), field);
    expect(statusCode).toBe(400);
    expect(problem?.message).toBe(message);
  });

  it.each([
    [{ postal_code: 'K1A0B1', country: 'CA' }, undefined],
    [{ postal_code: 'K1A-0B1', country: 'CA' }, undefined],
    [{ postal_code: '90210-1234', country: 'US' }, undefined],
    [{ postal_code: '12345', country: 'CA' }, 'Please enter valid Postal/Zip Code'],
    [{ postal_code: 'K1A 0B1', country: 'US' }, 'Please enter valid Postal/Zip Code'],
    [{ postal_code: '123', country: 'US' }, 'Please enter at least 4 characters Postal/Zip Code'],
    [{ postal_code: '90210', country: '' }, 'Please select country first'],
  ])('checks the address postal code %j against its country', async (fields, message) => {
    const response = await browser.post('/api/register/business', businessSignUp({ address: address(fields) }));
    if (message === undefined) expect(response.statusCode).toBe(200);
    else
      expect(errorEnvelope.parse(response.json()).errors).toContainEqual({
        code: 4002,
        field: 'address.postal_code',
        message,
      });
  });

  it.each([
    ['name_first', 'A', 'Please enter at least 2 characters First Name'],
    ['address1', undefined, 'Please enter Address'],
    ['address2', 'x'.repeat(65), 'Please enter at most 64 characters Address 2'],
    ['city', 'O', 'Please enter at least 2 characters City'],
    ['province_state', undefined, 'Please enter Province/State'],
    ['email', 'office', 'Please enter valid Email'],
    ['phone', '61355501', 'Please enter 10 digit Phone Number'],
  ])('refuses address.%s = %j with "%s"', async (field, value, message) => {
    const { problem } = await refusal(
      '/api/register/business',
      businessSignUp({ address: address({ [field]: value }) }),
      `address.${field}`,
    );
    expect(problem?.message).toBe(message);
  });

  it('writes nothing when the merchant cannot be written: user, merchant and membership are one transaction', async () => {
    const db = subject.database.db;
    const count = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM merchants) + (SELECT count(*) FROM merchant_users) AS n`.execute(
            db,
          )
        ).rows[0]?.n,
      );
    const before = await count();
    await sql`ALTER TABLE merchant_users ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`.execute(db);
    try {
      const response = await browser.post('/api/register/business', businessSignUp());
      expect(response.statusCode).toBe(500);
    } finally {
      await sql`ALTER TABLE merchant_users DROP CONSTRAINT refuse_all`.execute(db);
    }
    expect(await count()).toBe(before);
  });
});
