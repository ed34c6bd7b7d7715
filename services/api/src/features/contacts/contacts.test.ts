import { contactListResponse, contactResponse, signedInResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { personalSignUp } from '../../testing/accounts.ts';
import { contactForm } from '../../testing/contacts.ts';

let subject: TestApp;
let alice: TestBrowser;
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
  alice = await signedUp();
});
afterAll(() => subject.close());

async function signedUp(signUp = personalSignUp()): Promise<TestBrowser> {
  const browser = await subject.browser();
  expect((await browser.post('/api/register/personal', signUp)).statusCode).toBe(200);
  return browser;
}

async function created(browser: TestBrowser, form = contactForm()) {
  const response = await browser.post('/api/user/contact-create', form);
  expect(response.statusCode).toBe(200);
  return contactResponse.parse(response.json()).contact;
}

async function refusal(url: string, body: Record<string, unknown>, field: string) {
  const response = await alice.post(url, body);
  const answer = response.json<{ response: string; errors: { code: number; field?: string; message: string }[] }>();
  expect(answer.response).toBe('error');
  return { statusCode: response.statusCode, problem: answer.errors.find((error) => error.field === field) };
}

describe('POST /api/user/contact-create', () => {
  it('saves the contact for the signed-in user, phone as dialling code plus 10 digits, and lists it', async () => {
    const form = contactForm({ name_first: '  Zoé ', province: 'on' });
    const contact = await created(alice, form);
    expect(contact).toMatchObject({
      name_first: 'Zoé',
      phone: '+16135550199',
      phone_region: '+1',
      email: form.email,
      province: 'ON',
      postal: 'K1N 5Y1',
      guser_id: null,
    });
    const list = contactListResponse.parse((await alice.get('/api/user/contact-list')).json());
    expect(list.contacts.map((each) => each.contact_id)).toContain(contact.contact_id);
    expect(list.total).toBe(list.contacts.length);
  });

  it("takes the spec's wire form of the phone, +14165550123, and stores it as the form's", async () => {
    const contact = await created(alice, contactForm({ phone: '+14165550123', phone_region: undefined }));
    expect(contact).toMatchObject({ phone: '+14165550123', phone_region: '+1' });
    const row = await subject.database.db
      .selectFrom('contacts')
      .select(['phone', 'phone_region'])
      .where('contact_id', '=', contact.contact_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: '4165550123', phone_region: '+1' });
    const abroad = await created(alice, contactForm({ phone: '+442071838750' }));
    expect(abroad).toMatchObject({ phone: '+442071838750', phone_region: '+44' });
  });

  it('links a contact whose e-mail belongs to a registered user, for Send A Money Transfer', async () => {
    const signUp = personalSignUp();
    const bob = signedInResponse.parse(
      (await (await subject.browser()).post('/api/register/personal', signUp)).json(),
    ).user;
    const email = String(signUp.email).toUpperCase();
    const contact = await created(alice, contactForm({ email, confirm_email: email }));
    expect(contact).toMatchObject({ guser_id: bob.guser_id, user_id: bob.user_id, username: bob.username });
  });

  it.each([
    ['name_first', undefined, 4215, 'Please enter First Name'],
    ['name_first', 'A', 4002, 'Please enter at least 2 characters First Name'],
    ['name_first', 'A'.repeat(65), 4002, 'Please enter at most 64 characters First Name'],
    ['name_last', undefined, 4215, 'Please enter Last Name'],
    ['name_last', 'B', 4002, 'Please enter at least 2 characters Last Name'],
    ['name_last', 'B'.repeat(65), 4002, 'Please enter at most 64 characters Last Name'],
    ['phone', undefined, 4215, 'Please enter Phone Number'],
    ['phone', '', 4215, 'Please enter Phone Number'],
    ['phone', '613555abcd', 4002, 'Please enter valid Phone Number'],
    ['phone', '613555019', 4002, 'Please enter valid Phone Number'],
    ['phone', '16135550199', 4002, 'Sorry,11 digit Phone Number accepted only'],
    ['phone', 6135550199, 4002, 'Please enter valid Phone Number'],
    ['email', undefined, 4215, 'Please enter Email'],
    ['email', 'not-an-email', 4002, 'Please enter valid Email'],
    ['email', `${'a'.repeat(60)}@example.com`, 4002, 'Please enter at most 64 characters Email'],
    ['confirm_email', undefined, 4215, 'Please enter Confirm Email'],
    ['confirm_email', 'not-an-email', 4002, 'Please enter valid Confirm Email'],
    ['confirm_email', 'other@example.com', 4002, 'Email and Confirm Email do not match, please try again.'],
    ['country', undefined, 4215, 'Please select Country'],
    ['country', 'CAN', 4002, 'Please select Country'],
    ['province', undefined, 4215, 'Please enter Province/State'],
    ['province', 'Ontario', 4002, 'Please enter Province/State'],
    ['city', undefined, 4215, 'Please enter City'],
    ['city', 'Ot', 4002, 'Please enter at least 3 characters City'],
    ['city', 'O'.repeat(33), 4002, 'Please enter at most 32 characters City'],
    ['address1', undefined, 4215, 'Please enter Address Line 1'],
    ['address1', '1 Main', 4002, 'Please enter at least 8 characters Address Line 1'],
    ['address1', '1'.repeat(65), 4002, 'Please enter at most 64 characters Address Line 1'],
    ['address2', 'x'.repeat(65), 4002, 'Please enter at most 64 characters Apartment/Unit/Suite'],
    ['postal', undefined, 4215, 'Please enter Postal/Zip Code'],
    ['postal', 'K1N', 4002, 'Please enter at least 4 characters Postal/Zip Code'],
    ['postal', '12345', 4002, 'Please enter valid Postal/Zip Code'],
  ])('refuses %s = %j with %i "%s"', async (field, value, code, message) => {
    const { statusCode, problem } = await refusal('/api/user/contact-create', contactForm({ [field]: value }), field);
    expect(statusCode).toBe(400);
    expect(problem).toEqual({ code, field, message });
  });

  it('takes a US zip (5 or 5+4) outside Canada and refuses a Canadian code there', async () => {
    await created(alice, contactForm({ country: 'US', province: 'NY', postal: '10001-1234' }));
    const { problem } = await refusal(
      '/api/user/contact-create',
      contactForm({ country: 'US', province: 'NY', postal: 'K1N 5Y1' }),
      'postal',
    );
    expect(problem?.message).toBe('Please enter valid Postal/Zip Code');
  });

  it('leaves address line 2 optional', async () => {
    const form = contactForm();
    delete form.address2;
    expect((await created(alice, form)).address2).toBeNull();
  });

  it('answers 23201 for a second contact with the same e-mail, whatever its case', async () => {
    const form = contactForm();
    await created(alice, form);
    const email = String(form.email).toUpperCase();
    const response = await alice.post('/api/user/contact-create', contactForm({ email, confirm_email: email }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: 'Sorry, This Contact Already Exist',
      errors: [{ code: 23201, field: 'email', message: 'Sorry, This Contact Already Exist' }],
    });
  });

  it('lets another user keep a contact with the same e-mail: duplicates are per owner', async () => {
    const form = contactForm();
    await created(alice, form);
    await created(await signedUp(), form);
  });
});

describe('POST /api/user/contact-update', () => {
  it('replaces the fields of the own contact', async () => {
    const contact = await created(alice);
    const response = await alice.post(
      '/api/user/contact-update',
      contactForm({ contact_id: contact.contact_id, city: 'Gatineau', province: 'QC', postal: 'J8X 2K1' }),
    );
    expect(response.statusCode).toBe(200);
    expect(contactResponse.parse(response.json()).contact).toMatchObject({
      contact_id: contact.contact_id,
      city: 'Gatineau',
      province: 'QC',
    });
  });

  it('keeps the same e-mail on its own contact but answers 23201 for one another contact has', async () => {
    const first = await created(alice);
    const second = await created(alice);
    const same = await alice.post('/api/user/contact-update', {
      ...contactForm({ email: first.email, confirm_email: first.email }),
      contact_id: first.contact_id,
    });
    expect(same.statusCode).toBe(200);
    const taken = await alice.post('/api/user/contact-update', {
      ...contactForm({ email: first.email, confirm_email: first.email }),
      contact_id: second.contact_id,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errors: [{ code: 23201, field: 'email' }] });
  });

  it('applies the form rules on update too', async () => {
    const contact = await created(alice);
    const { statusCode, problem } = await refusal(
      '/api/user/contact-update',
      contactForm({ contact_id: contact.contact_id, phone: '123' }),
      'phone',
    );
    expect(statusCode).toBe(400);
    expect(problem?.message).toBe('Please enter valid Phone Number');
  });
});

describe('GET /api/user/contact-lookup and POST /api/user/contact-delete', () => {
  it('looks up and deletes the own contact', async () => {
    const contact = await created(alice);
    const lookup = await alice.get(`/api/user/contact-lookup?id=${contact.contact_id}`);
    expect(contactResponse.parse(lookup.json()).contact).toEqual(contact);
    const deleted = await alice.post('/api/user/contact-delete', { contact_id: contact.contact_id });
    expect(deleted.json()).toEqual({ response: 'success', message: 'Your contact has been deleted.' });
    expect((await alice.get(`/api/user/contact-lookup?id=${contact.contact_id}`)).statusCode).toBe(404);
  });
});

describe("another user's contact", () => {
  it('is 404 to lookup, update and delete, and stays unchanged', async () => {
    const mallory = await signedUp();
    const contact = await created(alice);
    const id = contact.contact_id;
    expect((await mallory.get(`/api/user/contact-lookup?id=${id}`)).statusCode).toBe(404);
    const update = await mallory.post(
      '/api/user/contact-update',
      contactForm({ contact_id: id, name_first: 'Hacked' }),
    );
    expect(update.statusCode).toBe(404);
    expect(update.json()).toMatchObject({ errors: [{ code: 40411 }] });
    expect((await mallory.post('/api/user/contact-delete', { contact_id: id })).statusCode).toBe(404);
    const list = contactListResponse.parse((await mallory.get('/api/user/contact-list')).json());
    expect(list.contacts).toEqual([]);
    expect(contactResponse.parse((await alice.get(`/api/user/contact-lookup?id=${id}`)).json()).contact).toEqual(
      contact,
    );
  });

  it("hides the user's own entry from the list", async () => {
    const signUp = personalSignUp();
    const owner = await signedUp(signUp);
    await created(owner, contactForm({ email: signUp.email, confirm_email: signUp.email }));
    const other = await created(owner);
    const list = contactListResponse.parse((await owner.get('/api/user/contact-list')).json());
    expect(list.contacts.map((each) => each.contact_id)).toEqual([other.contact_id]);
  });
});

describe('signed out and CSRF', () => {
  const calls: [method: 'GET' | 'POST', url: string, body?: () => Record<string, unknown>][] = [
    ['GET', '/api/user/contact-list'],
    ['GET', '/api/user/contact-lookup?id=1'],
    ['POST', '/api/user/contact-create', () => contactForm()],
    ['POST', '/api/user/contact-update', () => contactForm({ contact_id: 1 })],
    ['POST', '/api/user/contact-delete', () => ({ contact_id: 1 })],
  ];

  it.each(calls)('%s %s is 401 when signed out', async (method, url, body) => {
    const anonymous = await subject.browser();
    const response = await anonymous.request(method, url, body?.());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ errors: [{ code: 40100 }] });
  });

  it.each(calls.filter(([method]) => method === 'POST'))(
    '%s %s is 403 without the CSRF token and changes nothing',
    async (method, url, body) => {
      const before = (await alice.get('/api/user/contact-list')).json<unknown>();
      const response = await alice.request(method, url, body?.(), { 'x-csrf-token': '' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ errors: [{ code: 40300 }] });
      expect((await alice.get('/api/user/contact-list')).json()).toEqual(before);
    },
  );
});

describe('POST /api/user/recipient-create (spec §2 Add A Recipient, §5 Banking)', () => {
  const banking = { bank_name: 'Banque Laurentienne', institution_no: '039', account_no: '1234567' };

  it('saves the contact with its banking details, shown back to its owner only', async () => {
    const response = await alice.post('/api/user/recipient-create', contactForm({ ...banking }));
    expect(response.statusCode, response.body).toBe(200);
    const contact = contactResponse.parse(response.json()).contact;
    expect(contact).toMatchObject({ bank_name: 'Banque Laurentienne', account_no: '1234567' });
    const mine = contactListResponse.parse((await alice.get('/api/user/contact-list')).json());
    expect(mine.contacts.find((each) => each.contact_id === contact.contact_id)?.account_no).toBe('1234567');
    const stranger = await signedUp();
    const theirs = contactListResponse.parse((await stranger.get('/api/user/contact-list')).json());
    expect(theirs.contacts.map((each) => each.contact_id)).not.toContain(contact.contact_id);
    expect((await stranger.get(`/api/user/contact-lookup?id=${String(contact.contact_id)}`)).statusCode).toBe(404);
  });

  it("takes the spec's wire form of the phone, split as the Contacts page's is", async () => {
    const response = await alice.post(
      '/api/user/recipient-create',
      contactForm({ ...banking, phone: '+442071838750', phone_region: undefined }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const contact = contactResponse.parse(response.json()).contact;
    expect(contact).toMatchObject({ phone: '+442071838750', phone_region: '+44' });
    const row = await subject.database.db
      .selectFrom('contacts')
      .select(['phone', 'phone_region'])
      .where('contact_id', '=', contact.contact_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: '2071838750', phone_region: '+44' });
  });

  it('a contact saved from the Contacts page has no banking details', async () => {
    expect(await created(alice)).toMatchObject({ bank_name: null, account_no: null });
  });

  it.each([
    ['bank_name', { bank_name: '' }, 'Please enter Bank Name'],
    ['bank_name', { bank_name: 'B' }, 'Please enter at least 2 characters Bank Name'],
    ['institution_no', { institution_no: 'x'.repeat(101) }, 'Please enter at most 100 characters Institution Number'],
    ['account_no', { account_no: '1234567890123456' }, 'Please enter at most 15 characters Account Number'],
    ['account_no', { account_no: undefined }, 'Please enter Account Number'],
  ])('refuses %s: %j with 400 and the rule’s words', async (field, change, words) => {
    const { statusCode, problem } = await refusal(
      '/api/user/recipient-create',
      { ...contactForm(), ...banking, ...change },
      field,
    );
    expect(statusCode).toBe(400);
    expect(problem?.message).toBe(words);
  });
});
