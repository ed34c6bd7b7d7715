import { errorEnvelope, merchantLookupResponse, terminalListResponse, terminalResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { merchantEdit, signedUp, terminal, testAppOptions, type SignedIn } from '../../testing/merchants.ts';

let subject: TestApp;
let merchant: SignedIn;
let other: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  merchant = await signedUp(subject, 'business');
  other = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

const problems = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const lookup = async (who: SignedIn) =>
  merchantLookupResponse.parse((await who.browser.get(`/api/user/merchant-lookup?id=${who.merchantId}`)).json())
    .merchantInfo;

describe('POST /api/merchant/update-merchant', () => {
  it('saves the editable fields with the success text', async () => {
    const response = await merchant.browser.post('/api/merchant/update-merchant', merchantEdit());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Merchant Details Updated successfully.' });
    expect(await lookup(merchant)).toMatchObject({
      website: 'https://new.example.com',
      support_phone: '6135559000',
      contact_name: 'Jean Roy',
      address: { address1: '200 Bank St', address2: 'Floor 3' },
    });
  });

  it('keeps and answers the dialling codes of the support and contact phones', async () => {
    const response = await merchant.browser.post(
      '/api/merchant/update-merchant',
      merchantEdit({ support_phone: '+442079460958', contact_phone: '9820012345', contact_phone_region: '+91' }),
    );
    expect(response.statusCode).toBe(200);
    expect(await lookup(merchant)).toMatchObject({
      support_phone: '2079460958',
      support_phone_region: '+44',
      contact_phone: '9820012345',
      contact_phone_region: '+91',
    });
  });

  it('takes name and DBA when unchanged, refuses a change with the tooltip text', async () => {
    const before = await lookup(merchant);
    expect(
      (
        await merchant.browser.post(
          '/api/merchant/update-merchant',
          merchantEdit({ name: before.name, dba: before.dba }),
        )
      ).statusCode,
    ).toBe(200);
    const response = await merchant.browser.post(
      '/api/merchant/update-merchant',
      merchantEdit({ name: 'Renamed Inc', dba: 'Renamed' }),
    );
    expect(response.statusCode).toBe(403);
    expect(problems(response)).toEqual([
      { code: 1009, field: 'name', message: 'For update contact to admin' },
      { code: 1009, field: 'dba', message: 'For update contact to admin' },
    ]);
    expect(await lookup(merchant)).toMatchObject({ name: before.name, dba: before.dba });
  });

  it.each([
    ['website', { website: '' }, 'Please enter Website'],
    ['website', { website: 'not a url' }, 'Please enter valid Website'],
    ['support_url', { support_url: 'ftp://x.example.com' }, 'Please enter valid Support Url'],
    ['support_email', { support_email: 'nope' }, 'Please enter valid Support Email'],
    ['contact_email', { contact_email: '' }, 'Please enter Contact Email'],
    ['contact_name', { contact_name: 'J' }, 'Please enter at least 2 characters Contact Name'],
    ['contact_name', { contact_name: 'J'.repeat(65) }, 'Please enter at most 64 characters Contact Name'],
    ['address.address1', { address: { address1: '', address2: 'Floor 3' } }, 'Please enter Address 1'],
    [
      'address.address2',
      { address: { address1: '200 Bank St', address2: 'x'.repeat(101) } },
      'Please enter at most 100 characters Address 2',
    ],
    ['support_phone', { support_phone: '61355590001' }, 'Sorry, 10 digit Support Phone accepted only'],
    ['support_phone', { support_phone: '613555abcd' }, 'Please enter valid Support Phone'],
    ['contact_phone', { contact_phone: '' }, 'Please enter Contact Phone'],
  ])('%s: %j reads %s', async (field, change, message) => {
    const before = await lookup(merchant);
    const response = await merchant.browser.post('/api/merchant/update-merchant', merchantEdit(change));
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toContainEqual(expect.objectContaining({ field, message }));
    expect(await lookup(merchant)).toEqual(before);
  });

  it("another merchant's id is 404 and changes nothing", async () => {
    const before = await lookup(other);
    const response = await merchant.browser.post(
      '/api/merchant/update-merchant',
      merchantEdit({ merchant_id: other.merchantId }),
    );
    expect(response.statusCode).toBe(404);
    expect(await lookup(other)).toEqual(before);
  });
});

const terminals = async (who: SignedIn) =>
  terminalListResponse.parse((await who.browser.get('/api/merchant-terminal/list')).json()).merchantTerminalList;

describe('merchant terminals', () => {
  it('creates, lists, updates and deletes a terminal of the current merchant', async () => {
    const created = await merchant.browser.post(
      '/api/user/create-merchant-terminal',
      terminal(merchant, { terminal_id: 'POS-crud', registration_code: '102' }),
    );
    expect(created.statusCode).toBe(200);
    const made = terminalResponse.parse(created.json()).merchantTerminal;
    expect(made).toMatchObject({ merchant_id: merchant.merchantId, terminal_id: 'POS-crud', registration_code: 102 });
    expect(await terminals(merchant)).toContainEqual(made);

    const updated = await merchant.browser.post(
      '/api/user/update-merchant-terminal',
      terminal(merchant, {
        merchant_terminal_id: made.merchant_terminal_id,
        terminal_id: 'POS-crud',
        comment: 'Back office',
        registration_code: 101,
      }),
    );
    expect(terminalResponse.parse(updated.json()).merchantTerminal).toMatchObject({
      comment: 'Back office',
      registration_code: 101,
    });

    expect(
      (
        await merchant.browser.post('/api/merchant-terminal/delete', {
          merchant_terminal_id: made.merchant_terminal_id,
        })
      ).statusCode,
    ).toBe(200);
    expect((await terminals(merchant)).map((each) => each.merchant_terminal_id)).not.toContain(
      made.merchant_terminal_id,
    );
  });

  it.each([
    ['terminal_id', { terminal_id: '' }, 'Please enter Terminal Id'],
    ['terminal_id', { terminal_id: 'P' }, 'Please enter at least 2 characters Terminal Id'],
    ['terminal_id', { terminal_id: 'P'.repeat(129) }, 'Please enter at most 128 characters Terminal Id'],
    ['comment', { comment: 'x' }, 'Please enter at least 2 characters Comment'],
    ['comment', { comment: 'x'.repeat(513) }, 'Please enter at most 512 characters Comment'],
    ['registration_code', { registration_code: 103 }, 'Please select Registration Code'],
    ['registration_code', { registration_code: undefined }, 'Please select Registration Code'],
    ['merchant_id', { merchant_id: undefined }, 'Please select Merchant'],
  ])('%s: %j reads %s', async (field, change, message) => {
    const before = await terminals(merchant);
    const response = await merchant.browser.post('/api/user/create-merchant-terminal', terminal(merchant, change));
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toContainEqual(expect.objectContaining({ field, message }));
    expect(await terminals(merchant)).toEqual(before);
  });

  it('a terminal id the merchant already has is 409', async () => {
    await merchant.browser.post('/api/user/create-merchant-terminal', terminal(merchant, { terminal_id: 'POS-dup' }));
    const again = await merchant.browser.post(
      '/api/user/create-merchant-terminal',
      terminal(merchant, { terminal_id: 'POS-dup' }),
    );
    expect(again.statusCode).toBe(409);
    expect(problems(again)).toEqual([
      { code: 40910, field: 'terminal_id', message: 'Terminal Id already exists for this merchant' },
    ]);
  });

  it("another merchant's terminal is 404 to update and delete, and stays as it was", async () => {
    const theirs = terminalResponse.parse(
      (
        await other.browser.post('/api/user/create-merchant-terminal', terminal(other, { terminal_id: 'POS-theirs' }))
      ).json(),
    ).merchantTerminal;
    const update = await merchant.browser.post(
      '/api/user/update-merchant-terminal',
      terminal(merchant, { merchant_terminal_id: theirs.merchant_terminal_id, comment: 'hijacked' }),
    );
    expect(update.statusCode).toBe(404);
    expect(problems(update)[0]?.code).toBe(40412);
    const remove = await merchant.browser.post('/api/merchant-terminal/delete', {
      merchant_terminal_id: theirs.merchant_terminal_id,
    });
    expect(remove.statusCode).toBe(404);
    expect(await terminals(other)).toContainEqual(theirs);
    expect((await terminals(merchant)).map((each) => each.merchant_terminal_id)).not.toContain(
      theirs.merchant_terminal_id,
    );
  });

  it("naming another merchant's id is 404, for the list and for create", async () => {
    expect((await merchant.browser.get(`/api/merchant-terminal/list?merchant_id=${other.merchantId}`)).statusCode).toBe(
      404,
    );
    const before = await terminals(other);
    expect(
      (
        await merchant.browser.post(
          '/api/user/create-merchant-terminal',
          terminal(other, { terminal_id: 'POS-planted' }),
        )
      ).statusCode,
    ).toBe(404);
    expect(await terminals(other)).toEqual(before);
  });
});
