import { addressListResponse, addressResponse, type Address } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { personalSignUp } from '../../testing/accounts.ts';
import { addressForm } from '../../testing/addresses.ts';
import { choosePrimary } from './primary.ts';

let subject: TestApp;
let alice: TestBrowser;
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
  alice = await signedUp();
});
afterAll(() => subject.close());

async function signedUp(): Promise<TestBrowser> {
  const browser = await subject.browser();
  expect((await browser.post('/api/register/personal', personalSignUp())).statusCode).toBe(200);
  return browser;
}

async function added(browser: TestBrowser, form = addressForm()): Promise<Address> {
  const response = await browser.post('/api/user/add-address', form);
  expect(response.statusCode).toBe(200);
  const answer = addressResponse.parse(response.json());
  expect(answer.message).toBe('New Address added successfully.');
  return answer.address;
}

async function listOf(browser: TestBrowser) {
  const response = await browser.get('/api/user/address-list');
  expect(response.statusCode).toBe(200);
  return addressListResponse.parse(response.json());
}

const primaries = async (browser: TestBrowser) =>
  (await listOf(browser)).address.filter((each) => each.is_primary).map((each) => each.address_id);

describe('choosePrimary', () => {
  it.each([
    [{ asked: false, wasPrimary: false, othersExist: false }, true],
    [{ asked: undefined, wasPrimary: false, othersExist: false }, true],
    [{ asked: true, wasPrimary: false, othersExist: true }, true],
    [{ asked: false, wasPrimary: false, othersExist: true }, false],
    [{ asked: undefined, wasPrimary: false, othersExist: true }, false],
    [{ asked: false, wasPrimary: true, othersExist: true }, true],
  ])('%j → %s', (input, expected) => {
    expect(choosePrimary(input)).toBe(expected);
  });
});

describe('is_primary', () => {
  it('makes the first address primary even when not asked, and later ones not unless asked', async () => {
    const browser = await signedUp();
    const first = await added(browser, addressForm({ is_primary: false }));
    const second = await added(browser);
    expect([first.is_primary, second.is_primary]).toEqual([true, false]);
    expect(await primaries(browser)).toEqual([first.address_id]);
  });

  it('moves the primary when another is added or updated as primary: always exactly one', async () => {
    const browser = await signedUp();
    const first = await added(browser);
    const second = await added(browser, addressForm({ is_primary: true }));
    expect(await primaries(browser)).toEqual([second.address_id]);
    const updated = await browser.post(
      '/api/user/update-address',
      addressForm({ address_id: first.address_id, is_primary: true }),
    );
    expect(addressResponse.parse(updated.json())).toMatchObject({
      message: 'Address Updated successfully.',
      address: { is_primary: true },
    });
    expect(await primaries(browser)).toEqual([first.address_id]);
  });

  it('keeps the primary when an edit tries to un-mark it', async () => {
    const browser = await signedUp();
    const first = await added(browser);
    await added(browser);
    await browser.post('/api/user/update-address', addressForm({ address_id: first.address_id, is_primary: false }));
    expect(await primaries(browser)).toEqual([first.address_id]);
  });

  it('hands the primary to the oldest remaining address when the primary is deleted', async () => {
    const browser = await signedUp();
    const first = await added(browser);
    const second = await added(browser);
    const third = await added(browser);
    const deleted = await browser.post('/api/user/delete-address', { address_id: first.address_id });
    expect(deleted.json()).toEqual({ response: 'success', message: 'Address deleted successfully.' });
    expect(await primaries(browser)).toEqual([second.address_id]);
    await browser.post('/api/user/delete-address', { address_id: third.address_id });
    expect(await primaries(browser)).toEqual([second.address_id]);
    await browser.post('/api/user/delete-address', { address_id: second.address_id });
    expect(await listOf(browser)).toEqual({ response: 'success', address: [], total: 0 });
  });

  it('keeps exactly one primary when several are added as primary at once', async () => {
    const browser = await signedUp();
    await Promise.all(
      Array.from({ length: 5 }, () => browser.post('/api/user/add-address', addressForm({ is_primary: true }))),
    );
    const list = await listOf(browser);
    expect(list.total).toBe(5);
    expect(list.address.filter((each) => each.is_primary)).toHaveLength(1);
  });
});

describe('GET /api/user/address-list', () => {
  it('pages by offset and limit (25 by default) and counts them all', async () => {
    const browser = await signedUp();
    for (let index = 0; index < 3; index += 1) await added(browser, addressForm({ city: `City ${index}` }));
    const page = addressListResponse.parse((await browser.get('/api/user/address-list?offset=1&limit=1')).json());
    expect(page.total).toBe(3);
    expect(page.address).toHaveLength(1);
    expect(page.address[0]?.city).toBe('City 1');
    expect((await browser.get('/api/user/address-list?limit=0')).statusCode).toBe(400);
    expect((await browser.get('/api/user/address-list?limit=101')).statusCode).toBe(400);
  });
});

describe('Address modal rules', () => {
  it.each([
    ['name_first', undefined, 4215, 'Please enter First Name'],
    ['name_first', 'A', 4002, 'Please enter at least 2 characters First Name'],
    ['name_last', 'B'.repeat(65), 4002, 'Please enter at most 64 characters Last Name'],
    ['address1', undefined, 4215, 'Please enter Address'],
    ['address2', 'x'.repeat(65), 4002, 'Please enter at most 64 characters Address 2'],
    ['city', 'O', 4002, 'Please enter at least 2 characters City'],
    ['province_state', undefined, 4215, 'Please enter Province/State'],
    ['country', 'Canada', 4002, 'Please select Country'],
    ['postal_code', undefined, 4215, 'Please enter Postal/Zip Code'],
    ['postal_code', 'K1A', 4002, 'Please enter at least 4 characters Postal/Zip Code'],
    ['postal_code', '12345', 4002, 'Please enter valid Postal/Zip Code'],
    ['is_primary', 'yes', 4002, 'Please enter valid Primary'],
  ])('refuses %s = %j with %i "%s"', async (field, value, code, message) => {
    const response = await alice.post('/api/user/add-address', addressForm({ [field]: value }));
    expect(response.statusCode).toBe(400);
    const answer = response.json<{ errors: { field?: string }[] }>();
    expect(answer.errors.find((error) => error.field === field)).toEqual({ code, field, message });
  });

  it('takes a US zip with a US address', async () => {
    expect(
      (await added(alice, addressForm({ country: 'US', province_state: 'NY', postal_code: '10001' }))).postal_code,
    ).toBe('10001');
  });
});

describe("another user's address", () => {
  it('is 404 to update and delete, and stays unchanged', async () => {
    const mallory = await signedUp();
    const address = await added(alice);
    const update = await mallory.post(
      '/api/user/update-address',
      addressForm({ address_id: address.address_id, city: 'Hacked' }),
    );
    expect(update.statusCode).toBe(404);
    expect(update.json()).toMatchObject({ errors: [{ code: 40410 }] });
    expect((await mallory.post('/api/user/delete-address', { address_id: address.address_id })).statusCode).toBe(404);
    expect((await listOf(mallory)).total).toBe(0);
    expect((await listOf(alice)).address).toContainEqual(address);
  });
});

describe('signed out and CSRF', () => {
  const calls: [method: 'GET' | 'POST', url: string, body?: Record<string, unknown>][] = [
    ['GET', '/api/user/address-list'],
    ['POST', '/api/user/add-address', addressForm()],
    ['POST', '/api/user/update-address', addressForm({ address_id: 1 })],
    ['POST', '/api/user/delete-address', { address_id: 1 }],
  ];

  it.each(calls)('%s %s is 401 when signed out', async (method, url, body) => {
    const response = await (await subject.browser()).request(method, url, body);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ errors: [{ code: 40100 }] });
  });

  it.each(calls.filter(([method]) => method === 'POST'))(
    '%s %s is 403 without the CSRF token and changes nothing',
    async (method, url, body) => {
      const before = await listOf(alice);
      const response = await alice.request(method, url, body, { 'x-csrf-token': '' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ errors: [{ code: 40300 }] });
      expect(await listOf(alice)).toEqual(before);
    },
  );
});
