import { errorCodes, payMethodListResponse, paymentMethodResponse, providerLookupResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import {
  billing,
  canadianBank,
  cardForm,
  shipping,
  storedBank,
  storedCard,
  tokenFor,
  usBank,
  wireForm,
  wireInstructionsForm,
} from '../../testing/payment-methods.ts';

let subject: TestApp;
let ann: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  ann = await signedUp(subject, 'personal');
});
afterAll(() => subject.close());

const add = (who: SignedIn, form: unknown) => who.browser.post('/api/wallet/add-pay-method', form);
const list = async (who: SignedIn) => {
  const response = await who.browser.post('/api/account/pay-method', {});
  expect(response.statusCode, response.body).toBe(200);
  return payMethodListResponse.parse(response.json());
};
const problems = (body: string) =>
  (JSON.parse(body) as { errors: { field?: string; message: string; code: number }[] }).errors;
async function expectProblem(form: unknown, field: string, message: string) {
  const response = await add(ann, form);
  expect(response.statusCode, response.body).toBe(400);
  expect(problems(response.body).map((each) => [each.field, each.message])).toContainEqual([field, message]);
}
const nested = (section: string, overrides: Record<string, unknown>) => (form: Record<string, unknown>) => ({
  ...form,
  [section]: { ...(form[section] as Record<string, unknown>), ...overrides },
});

describe('adding a card', () => {
  it('stores the token with the brand, mask and expiry the processor knows, and never answers the token', async () => {
    const who = await signedUp(subject, 'personal');
    const token = await tokenFor(subject, { card_number: '5555555555554444' });
    const response = await add(who, cardForm(token));
    expect(response.statusCode, response.body).toBe(200);
    const method = paymentMethodResponse.parse(response.json()).payment_method;
    expect(method).toMatchObject({
      type: 'CC',
      state: 'E',
      validated: 'V',
      is_default: true,
      brand: 'mastercard',
      number: '************4444',
    });
    expect(method.type_specific).toMatchObject({
      card_brand: 'mastercard',
      card_mask: '************4444',
      cardholder_name: 'Anne Tremblay',
      card_expiry: { month: 8 },
    });
    expect(response.body).not.toContain(token);
    const row = await subject.database.db
      .selectFrom('payment_methods')
      .select(['type_specific'])
      .where('payment_method_id', '=', method.payment_method_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('5555555555554444');
  });

  it("takes the spec's wire forms: token_type 'tokenex' and the expiry as numbers", async () => {
    const who = await signedUp(subject, 'personal');
    const year = new Date().getUTCFullYear() + 2;
    const token = await tokenFor(subject, { expiry_month: '11', expiry_year: String(year) });
    const response = await add(who, cardForm(token, { token_type: 'tokenex', card_expiry: { year, month: 11 } }));
    expect(response.statusCode, response.body).toBe(200);
    const method = paymentMethodResponse.parse(response.json()).payment_method;
    expect(method.type_specific).toMatchObject({ token_type: 'sandbox', card_expiry: { year, month: 11 } });
  });

  it('refuses the same card token twice with 10503', async () => {
    const token = await tokenFor(subject);
    expect((await add(ann, cardForm(token))).statusCode).toBe(200);
    expectRefusal(await add(ann, cardForm(token)), 409, errorCodes.paymentMethodExists, 'same token');
  });

  it("refuses a token the processor never issued as 'Please enter valid Card Number'", async () => {
    await expectProblem(
      cardForm('4242420000000000000000424242'),
      'type_specific.token',
      'Please enter valid Card Number',
    );
  });

  it.each(['378282246310005', '6011111111111117', '2100000000000005', '2800000000000008', '5600000000000003'])(
    "refuses card %s: 'Payment method not supported'",
    async (number) => {
      const token = await tokenFor(subject, { card_number: number });
      const response = await add(ann, cardForm(token));
      expect(response.statusCode).toBe(400);
      expect(problems(response.body)).toContainEqual({
        code: errorCodes.paymentMethodNotSupported,
        field: 'type_specific.token',
        message: 'Payment method not supported',
      });
    },
  );

  it.each(['2221000000000009', '2720990000000007', '5105105105105100', '4000056655665556'])(
    'takes card %s (4, 22-27, 51-55)',
    async (number) => {
      const who = await signedUp(subject, 'personal');
      expect((await add(who, cardForm(await tokenFor(subject, { card_number: number })))).statusCode).toBe(200);
    },
  );

  const thisYear = new Date().getUTCFullYear();
  it.each([
    [
      { card_expiry: { year: String(thisYear - 1), month: '12' } },
      'type_specific.card_expiry.year',
      'Please enter valid Expiry Year',
    ],
    [
      { card_expiry: { year: String(thisYear + 10), month: '01' } },
      'type_specific.card_expiry.year',
      'Please enter valid Expiry Year',
    ],
    [{ card_expiry: { year: '27', month: '01' } }, 'type_specific.card_expiry.year', 'Please enter valid Expiry Year'],
    [
      { card_expiry: { year: String(thisYear + 1), month: '1' } },
      'type_specific.card_expiry.month',
      'Please enter valid Expiry Month',
    ],
    [
      { card_expiry: { year: String(thisYear + 1), month: '13' } },
      'type_specific.card_expiry.month',
      'Please enter valid Expiry Month',
    ],
    [{ card_expiry: { year: String(thisYear + 1) } }, 'type_specific.card_expiry.month', 'Please enter Expiry Month'],
    [{ cardholder_name: '' }, 'type_specific.cardholder_name', 'Please enter Cardholder Name'],
    [{ cardholder_name: 'A' }, 'type_specific.cardholder_name', 'Please enter at least 2 characters Cardholder Name'],
    [{ token: '' }, 'type_specific.token', 'Please enter valid Card Number'],
    [{ token_type: 'stripe' }, 'type_specific.token_type', 'Please enter valid Token Type'],
  ])('card details %j: %s', async (overrides, field, message) => {
    await expectProblem(cardForm(await tokenFor(subject), overrides), field, message);
  });
});

describe('the billing and shipping address rules (§5, wire and bank forms)', () => {
  const card = async () => cardForm(await tokenFor(subject));
  it.each([
    [{ name_first: '' }, 'billing_address.name_first', 'Please enter First Name'],
    [{ name_first: 'A' }, 'billing_address.name_first', 'Please enter at least 2 characters First Name'],
    [{ name_last: 'x'.repeat(65) }, 'billing_address.name_last', 'Please enter at most 64 characters Last Name'],
    [{ address1: 'x'.repeat(101) }, 'billing_address.address1', 'Please enter at most 100 characters Address'],
    [{ address2: 'x'.repeat(65) }, 'billing_address.address2', 'Please enter at most 64 characters Address 2'],
    [{ city: 'O' }, 'billing_address.city', 'Please enter at least 2 characters City'],
    [{ city: 'x'.repeat(41) }, 'billing_address.city', 'Please enter at most 40 characters City'],
    [{ province: '' }, 'billing_address.province', 'Please enter Province'],
    [{ province: 'x'.repeat(65) }, 'billing_address.province', 'Please enter at most 64 characters Province'],
    [{ postal_code: 'K1N' }, 'billing_address.postal_code', 'Please enter at least 4 characters Postal/Zip Code'],
    [
      { postal_code: 'x'.repeat(17) },
      'billing_address.postal_code',
      'Please enter at most 16 characters Postal/Zip Code',
    ],
    [{ postal_code: '12345' }, 'billing_address.postal_code', 'Please enter valid Postal/Zip Code'],
    [{ country: 'US', postal_code: 'K1N 5X8' }, 'billing_address.postal_code', 'Please enter valid Postal/Zip Code'],
    [{ country: '' }, 'billing_address.postal_code', 'Please select country first'],
    [{ country: 'C' }, 'billing_address.country', 'Please enter at least 2 characters Country'],
    [{ country: 'CANAD' }, 'billing_address.country', 'Please enter at most 4 characters Country'],
  ])('billing %j: %s', async (overrides, field, message) => {
    await expectProblem(nested('billing_address', overrides)(await card()), field, message);
  });

  it.each([['K1N5X8'], ['K1N-5X8'], ['k1n 5x8']])('takes the Canadian postal code %s', async (postal) => {
    const response = await add(
      await signedUp(subject, 'personal'),
      nested('billing_address', { postal_code: postal })(await card()),
    );
    expect(response.statusCode, response.body).toBe(200);
  });

  it('takes a US ZIP+4, and checks the shipping address with its own prefix', async () => {
    const form = nested('billing_address', { country: 'US', postal_code: '05401-1234' })(await card());
    expect((await add(await signedUp(subject, 'personal'), form)).statusCode).toBe(200);
    await expectProblem(
      nested('shipping_address', { shipping_postal_code: '123' })(await card()),
      'shipping_address.shipping_postal_code',
      'Please enter at least 4 characters Postal/Zip Code',
    );
    await expectProblem(
      nested('shipping_address', { shipping_city: '' })(await card()),
      'shipping_address.shipping_city',
      'Please enter City',
    );
  });
});

describe('adding a bank account', () => {
  it('stores a Canadian account with transit and institution numbers, and shows only its last four digits', async () => {
    const who = await signedUp(subject, 'personal');
    const response = await add(who, canadianBank());
    expect(response.statusCode, response.body).toBe(200);
    const method = paymentMethodResponse.parse(response.json()).payment_method;
    expect(method).toMatchObject({
      type: 'CHQ',
      is_default: true,
      number: '*****6789',
      type_specific: { account_no: '*****6789', transit_no: '12345', institution_no: '003' },
    });
    expectRefusal(await add(who, canadianBank()), 409, errorCodes.paymentMethodExists, 'the same account again');
  });

  it('stores a US account with routing number and account type', async () => {
    const response = await add(ann, usBank());
    expect(response.statusCode, response.body).toBe(200);
    expect(paymentMethodResponse.parse(response.json()).payment_method.type_specific).toMatchObject({
      routing_no: '021000021',
      account_type: 'C',
    });
  });

  it.each([
    [canadianBank({ account_no: '' }), 'type_specific.account_no', 'Please enter Account Number'],
    [
      canadianBank({ account_no: '12345678' }),
      'type_specific.account_no',
      'Please enter at least 9 characters Account Number',
    ],
    [
      canadianBank({ account_no: '1'.repeat(33) }),
      'type_specific.account_no',
      'Please enter at most 32 characters Account Number',
    ],
    [canadianBank({ account_no: '12345678a' }), 'type_specific.account_no', 'Please enter valid Account Number'],
    [
      canadianBank({ transit_no: '1234' }),
      'type_specific.transit_no',
      'Please enter at least 5 characters Transit Number',
    ],
    [
      canadianBank({ transit_no: '123456' }),
      'type_specific.transit_no',
      'Please enter at most 5 characters Transit Number',
    ],
    [canadianBank({ transit_no: '1234a' }), 'type_specific.transit_no', 'Please enter valid Transit Number'],
    [canadianBank({ transit_no: undefined }), 'type_specific.transit_no', 'Please enter Transit Number'],
    [
      canadianBank({ institution_no: '03' }),
      'type_specific.institution_no',
      'Please enter at least 3 characters Institution Number',
    ],
    [canadianBank({ institution_no: undefined }), 'type_specific.institution_no', 'Please enter Institution Number'],
    [
      usBank({ routing_no: '12345678' }),
      'type_specific.routing_no',
      'Please enter at least 9 characters Routing Number',
    ],
    [usBank({ routing_no: '12345678x' }), 'type_specific.routing_no', 'Please enter valid Routing Number'],
    [usBank({ routing_no: undefined }), 'type_specific.routing_no', 'Please enter Routing Number'],
    [usBank({ account_type: 'X' }), 'type_specific.account_type', 'Please select Account Type'],
    [usBank({ account_type: undefined }), 'type_specific.account_type', 'Please select Account Type'],
  ])('%#: %s reads %s', async (form, field, message) => {
    await expectProblem(form, field, message);
  });
});

describe('adding a wire account', () => {
  it('stores the instructions, never as the default, with the account number masked', async () => {
    const who = await signedUp(subject, 'personal');
    const response = await add(who, wireForm());
    expect(response.statusCode, response.body).toBe(200);
    const method = paymentMethodResponse.parse(response.json()).payment_method;
    expect(method).toMatchObject({ type: 'WIRE', is_default: false, brand: 'WIRE Account', number: '******7788' });
    expect(method.type_specific).toMatchObject({
      instructions: { bank_name: 'Banque Laurentienne', bank_swift_code: 'BLCMCAMM', account_no: '******7788' },
    });
  });

  it('takes the instructions as an object too', async () => {
    const form = {
      ...wireForm(),
      type_specific: { account_no: '99887766', instructions: wireInstructionsForm({ account_no: '99887766' }) },
    };
    expect((await add(await signedUp(subject, 'personal'), form)).statusCode).toBe(200);
  });

  it.each([
    [{ bank_name: 'B' }, 'type_specific.instructions.bank_name', 'Please enter at least 2 characters Bank Name'],
    [
      { bank_name: 'x'.repeat(65) },
      'type_specific.instructions.bank_name',
      'Please enter at most 64 characters Bank Name',
    ],
    [
      { bank_address: 'x'.repeat(101) },
      'type_specific.instructions.bank_address',
      'Please enter at most 100 characters Bank Address',
    ],
    [
      { bank_city: 'x'.repeat(41) },
      'type_specific.instructions.bank_city',
      'Please enter at most 40 characters Bank City',
    ],
    [{ bank_province: '' }, 'type_specific.instructions.bank_province', 'Please enter Bank Province'],
    [
      { bank_postal_code: '90210' },
      'type_specific.instructions.bank_postal_code',
      'Please enter valid Postal/Zip Code',
    ],
    [
      { account_no: '12' },
      'type_specific.instructions.account_no',
      'Please enter at least 3 characters Account Number',
    ],
    [
      { account_no: '1'.repeat(17) },
      'type_specific.instructions.account_no',
      'Please enter at most 16 characters Account Number',
    ],
    [
      { bank_swift_code: 'ABCD' },
      'type_specific.instructions.bank_swift_code',
      'Please enter at least 5 characters SWIFT Code',
    ],
    [
      { bank_swift_code: 'x'.repeat(17) },
      'type_specific.instructions.bank_swift_code',
      'Please enter at most 16 characters SWIFT Code',
    ],
    [{ iban_no: 'CA' }, 'type_specific.instructions.iban_no', 'Please enter at least 3 characters IBAN'],
    [{ iban_no: 'x'.repeat(17) }, 'type_specific.instructions.iban_no', 'Please enter at most 16 characters IBAN'],
    [{ unit_no: '' }, 'type_specific.instructions.unit_no', 'Please enter Unit Number'],
    [{ unit_no: '12b' }, 'type_specific.instructions.unit_no', 'Please enter valid Unit Number'],
  ])('instructions %j: %s', async (overrides, field, message) => {
    await expectProblem(wireForm(overrides), field, message);
  });

  it('checks the wire account number beside the instructions', async () => {
    await expectProblem(
      { ...wireForm(), type_specific: { account_no: '12', instructions: JSON.stringify(wireInstructionsForm()) } },
      'type_specific.account_no',
      'Please enter at least 3 characters Account Number',
    );
  });
});

describe('the list, the default and deleting', () => {
  it('lists only live methods, with exactly one default that moves on Select and on deleting the default', async () => {
    const who = await signedUp(subject, 'personal');
    const wire = paymentMethodResponse.parse((await add(who, wireForm())).json()).payment_method.payment_method_id;
    const card = await storedCard(subject, who);
    const bank = await storedBank(who);
    const defaults = async () =>
      (await list(who)).methods.filter((method) => method.is_default).map((method) => method.payment_method_id);
    expect((await list(who)).total).toBe(3);
    expect(await defaults()).toEqual([card]);

    const select = await who.browser.post('/api/account/user-payment-method-update', {
      paymentMethodId: bank,
      make_default: true,
    });
    expect(select.statusCode, select.body).toBe(200);
    expect(await defaults()).toEqual([bank]);
    expectRefusal(
      await who.browser.post('/api/account/user-payment-method-update', { paymentMethodId: bank, make_default: false }),
      422,
      errorCodes.defaultPaymentMethodNeeded,
      'un-marking the default',
    );
    expect(await defaults()).toEqual([bank]);

    const deleted = await who.browser.post('/api/account/user-payment-method-delete', { paymentMethodId: bank });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list(who)).methods.map((method) => method.payment_method_id)).toEqual([wire, card]);
    expect(await defaults()).toEqual([card]);
    expectRefusal(
      await who.browser.post('/api/account/user-payment-method-delete', { paymentMethodId: bank }),
      404,
      errorCodes.paymentMethodNotFound,
      'deleted twice',
    );
  });

  it('keeps one default when two methods are added at once', async () => {
    const who = await signedUp(subject, 'personal');
    const tokens = await Promise.all([tokenFor(subject), tokenFor(subject), tokenFor(subject)]);
    const answers = await Promise.all(tokens.map((token) => add(who, cardForm(token))));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect((await list(who)).methods.filter((method) => method.is_default)).toHaveLength(1);
  });

  it("answers 404 (10501) for someone else's method, and changes nothing", async () => {
    const mallory = await signedUp(subject, 'personal');
    const card = await storedCard(subject, ann);
    for (const [url, body] of [
      ['/api/account/user-payment-method-update', { paymentMethodId: card, make_default: true }],
      ['/api/account/user-payment-method-delete', { paymentMethodId: card }],
    ] as const) {
      expectRefusal(await mallory.browser.post(url, body), 404, errorCodes.paymentMethodNotFound, url);
    }
    expect((await list(ann)).methods.map((method) => method.payment_method_id)).toContain(card);
    expectRefusal(
      await mallory.browser.post('/api/account/pay-method', { user_id: ann.user.user_id }),
      404,
      errorCodes.userNotFound,
      'list for another user',
    );
  });

  it("answers 'Please select Payment Method' for a missing id", async () => {
    const response = await ann.browser.post('/api/account/user-payment-method-delete', {});
    expect(problems(response.body)).toContainEqual({
      code: errorCodes.requiredField,
      field: 'paymentMethodId',
      message: 'Please select Payment Method',
    });
  });
});

describe('payment-provider-lookup', () => {
  it("answers the sandbox tokenizer's settings, and 404 for an unknown provider", async () => {
    const response = await ann.browser.get('/api/wallet/payment-provider-lookup?provider=sandbox');
    expect(response.statusCode, response.body).toBe(200);
    const { detail } = providerLookupResponse.parse(response.json());
    expect(detail).toMatchObject({
      provider: 'sandbox',
      token_type: 'sandbox',
      tokenizer_url: '/api/sandbox/tokenizer',
      domain: 'http://localhost:80',
    });
    expect(detail.authkey).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(detail.timestamp)).not.toBeNaN();
    expectRefusal(
      await ann.browser.get('/api/wallet/payment-provider-lookup?provider=tokenex'),
      404,
      errorCodes.paymentProviderNotFound,
      'unknown provider',
    );
  });
});

// Keep the fixtures' shapes honest: the forms they build are valid as they stand.
it('fixtures are valid forms', async () => {
  expect(
    (
      await add(await signedUp(subject, 'personal'), {
        ...canadianBank(),
        billing_address: billing(),
        shipping_address: shipping(),
      })
    ).statusCode,
  ).toBe(200);
});
