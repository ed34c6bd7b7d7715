import { describe, expect, it } from 'vitest';
import { createContactRequest } from './contacts.ts';
import { updateMerchantRequest } from './merchants.ts';
import { cardPayMethodRequest } from './payment-methods.ts';
import { updateUserRequest } from './profile.ts';

const nextYear = new Date().getUTCFullYear() + 1;
/** The first problem of each field, as the forms and the error envelope show them. */
function messagesOf(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const first = new Map<string, string>();
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map(String).join('.');
    if (!first.has(path)) first.set(path, issue.message);
  }
  return [...first];
}

const contact = (overrides: Record<string, unknown>) => ({
  name_first: 'Marie',
  name_last: 'Gagnon',
  phone: '6135550199',
  email: 'marie@example.com',
  confirm_email: 'marie@example.com',
  address1: '200 Rideau Street',
  country: 'CA',
  province: 'ON',
  city: 'Ottawa',
  postal: 'K1N 5Y1',
  ...overrides,
});

describe("the spec's phone wire form: '+', dialling code and 10 digits (issue 21, item 6)", () => {
  it('is split into the 10 digits and the region that are stored today', () => {
    expect(createContactRequest.parse(contact({ phone: '+14165550123' }))).toMatchObject({
      phone: '4165550123',
      phone_region: '+1',
    });
    expect(createContactRequest.parse(contact({ phone: ' +442071838750 ' }))).toMatchObject({
      phone: '2071838750',
      phone_region: '+44',
    });
    // The code in the phone wins over a region sent beside it.
    expect(createContactRequest.parse(contact({ phone: '+442071838750', phone_region: '+1' }))).toMatchObject({
      phone: '2071838750',
      phone_region: '+44',
    });
  });

  it("keeps today's form and words: 10 digits with phone_region, and the same refusals", () => {
    expect(createContactRequest.parse(contact({ phone: '6135550199', phone_region: '+33' }))).toMatchObject({
      phone: '6135550199',
      phone_region: '+33',
    });
    for (const [phone, message] of [
      ['', 'Please enter Phone Number'],
      ['613555019', 'Please enter valid Phone Number'],
      ['61355501999', 'Sorry,11 digit Phone Number accepted only'],
      ['+1416555012', 'Please enter valid Phone Number'],
      ['+123454165550123', 'Please enter valid Phone Number'],
      ['1+4165550123', 'Please enter valid Phone Number'],
    ] as const) {
      expect(messagesOf(createContactRequest.safeParse(contact({ phone }))), phone).toEqual([['phone', message]]);
    }
  });

  it('serves the profile and the merchant edit alike (business registration: registration.test.ts), each phone with its own region', () => {
    const profile = updateUserRequest.parse({
      user_id: 7,
      name_first: 'Anne',
      name_last: 'Tremblay',
      email: 'anne@example.com',
      phone: '+336123456789',
      country: 'FR',
    });
    expect(profile).toMatchObject({ phone: '6123456789', phone_region: '+33' });
    const merchant = updateMerchantRequest.parse({
      website: 'https://maple.example.com',
      address: { address1: '100 Rideau St', address2: 'Unit 5' },
      support_url: 'https://maple.example.com/help',
      support_phone: '+14165550123',
      support_email: 'help@maple.example.com',
      contact_name: 'Jean Roy',
      contact_email: 'jean@maple.example.com',
      contact_phone: '6135550100',
      contact_phone_region: '+1',
    });
    expect(merchant).toMatchObject({
      support_phone: '4165550123',
      support_phone_region: '+1',
      contact_phone: '6135550100',
      contact_phone_region: '+1',
    });
  });
});

const card = (overrides: Record<string, unknown>) => ({
  type: 'CC',
  billing_address: {
    name_first: 'Anne',
    name_last: 'Tremblay',
    address1: '100 Rideau St',
    city: 'Ottawa',
    province: 'ON',
    postal_code: 'K1N 5X8',
    country: 'CA',
  },
  type_specific: {
    token: '4242000000004242',
    token_type: 'sandbox',
    cardholder_name: 'Anne Tremblay',
    card_expiry: { year: String(nextYear), month: '08' },
    ...overrides,
  },
});

describe("the spec's card wire forms (issue 21, item 6)", () => {
  it("takes token_type 'tokenex', the spec's tokenizer, which the sandbox stands in for", () => {
    expect(cardPayMethodRequest.parse(card({ token_type: 'tokenex' })).type_specific.token_type).toBe('sandbox');
    expect(cardPayMethodRequest.parse(card({})).type_specific.token_type).toBe('sandbox');
    expect(messagesOf(cardPayMethodRequest.safeParse(card({ token_type: 'stripe' })))).toEqual([
      ['type_specific.token_type', 'Please enter valid Token Type'],
    ]);
  });

  it('takes the expiry month and year as numbers as well as digit strings', () => {
    for (const card_expiry of [
      { year: nextYear, month: 12 },
      { year: String(nextYear), month: 12 },
      { year: nextYear, month: '12' },
    ]) {
      expect(cardPayMethodRequest.parse(card({ card_expiry })).type_specific.card_expiry).toEqual({
        year: nextYear,
        month: 12,
      });
    }
    expect(
      cardPayMethodRequest.parse(card({ card_expiry: { year: nextYear, month: 3 } })).type_specific.card_expiry,
    ).toEqual({ year: nextYear, month: 3 });
  });

  it("refuses a bad expiry in either form with today's words", () => {
    for (const [card_expiry, problem] of [
      [{ year: nextYear, month: 13 }, ['type_specific.card_expiry.month', 'Please enter valid Expiry Month']],
      [{ year: nextYear, month: 1.5 }, ['type_specific.card_expiry.month', 'Please enter valid Expiry Month']],
      [{ year: nextYear, month: -1 }, ['type_specific.card_expiry.month', 'Please enter valid Expiry Month']],
      [{ year: 28, month: 12 }, ['type_specific.card_expiry.year', 'Please enter valid Expiry Year']],
      [{ year: nextYear - 2, month: 12 }, ['type_specific.card_expiry.year', 'Please enter valid Expiry Year']],
      [{ year: nextYear, month: '' }, ['type_specific.card_expiry.month', 'Please enter Expiry Month']],
      [{ year: nextYear }, ['type_specific.card_expiry.month', 'Please enter Expiry Month']],
      [{ year: true, month: 12 }, ['type_specific.card_expiry.year', 'Please enter valid Expiry Year']],
    ] as const) {
      expect(
        messagesOf(cardPayMethodRequest.safeParse(card({ card_expiry }))),
        JSON.stringify(card_expiry),
      ).toContainEqual(problem);
    }
  });
});
