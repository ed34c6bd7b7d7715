import { randomUUID } from 'node:crypto';
import { paymentMethodResponse, tokenizeResponse } from '@peeks/contracts';
import { expect } from 'vitest';
import { processorHeaders, type TestApp } from './app.ts';
import { APPROVED_CARD } from '../features/card-processor/index.ts';
import type { SignedIn } from './merchants.ts';

const nextYear = new Date().getUTCFullYear() + 1;

/** What the tokenizer page posts for a good card; override any field. */
export const cardEntry = (overrides: Record<string, unknown> = {}) => ({
  card_number: APPROVED_CARD,
  cvv: '123',
  expiry_month: '08',
  expiry_year: String(nextYear),
  ...overrides,
});

export const billing = (overrides: Record<string, unknown> = {}) => ({
  name_first: 'Anne',
  name_last: 'Tremblay',
  address1: '100 Rideau St',
  address2: '',
  city: 'Ottawa',
  province: 'ON',
  postal_code: 'K1N 5X8',
  country: 'CA',
  ...overrides,
});

export const shipping = () =>
  Object.fromEntries(Object.entries(billing()).map(([key, value]) => [`shipping_${key}`, value]));

/** The Add Credit Card modal's request for a token; override any type_specific field. */
export const cardForm = (token: string, overrides: Record<string, unknown> = {}) => ({
  type: 'CC',
  billing_address: billing(),
  shipping_address: shipping(),
  type_specific: {
    token,
    token_type: 'sandbox',
    cardholder_name: 'Anne Tremblay',
    card_expiry: { year: String(nextYear), month: '08' },
    ...overrides,
  },
});

export const canadianBank = (overrides: Record<string, unknown> = {}) => ({
  type: 'CHQ',
  billing_address: billing(),
  type_specific: { account_no: '123456789', transit_no: '12345', institution_no: '003', ...overrides },
});

export const usBank = (overrides: Record<string, unknown> = {}) => ({
  type: 'CHQ',
  billing_address: billing({ city: 'Burlington', province: 'VT', postal_code: '05401', country: 'US' }),
  type_specific: { account_no: '987654321', routing_no: '021000021', account_type: 'C', ...overrides },
});

export const wireInstructionsForm = (overrides: Record<string, unknown> = {}) => ({
  bank_name: 'Banque Laurentienne',
  bank_address: '1360 Boulevard René-Lévesque',
  bank_city: 'Montreal',
  bank_province: 'QC',
  bank_postal_code: 'H3G 0E5',
  bank_country: 'CA',
  account_no: '4455667788',
  bank_swift_code: 'BLCMCAMM',
  iban_no: 'CA0012345',
  unit_no: '12',
  ...overrides,
});

export const wireForm = (overrides: Record<string, unknown> = {}) => ({
  type: 'WIRE',
  billing_address: billing(),
  shipping_address: shipping(),
  type_specific: { account_no: '4455667788', instructions: JSON.stringify(wireInstructionsForm(overrides)) },
});

/** A token from the sandbox tokenizer, as the iframe gets one: no session, no CSRF token. */
export async function tokenFor(subject: TestApp, entry: Record<string, unknown> = {}): Promise<string> {
  const response = await subject.app.inject({
    method: 'POST',
    url: '/api/sandbox/tokenize',
    payload: cardEntry(entry),
  });
  expect(response.statusCode, response.body).toBe(200);
  return tokenizeResponse.parse(response.json()).token;
}

/** The idempotency key of an approved sandbox charge of $5, made now. */
export async function approvedChargeKey(subject: TestApp): Promise<string> {
  const key = `charge-${randomUUID()}`;
  const response = await subject.app.inject({
    method: 'POST',
    url: '/api/sandbox/charges',
    headers: processorHeaders,
    payload: { token: await tokenFor(subject), amount: 500, currency: 'USD', idempotency_key: key },
  });
  expect(response.statusCode, response.body).toBe(200);
  return key;
}

/** A card stored for `owner`; its payment method id. */
export async function storedCard(subject: TestApp, owner: SignedIn, cardNumber = APPROVED_CARD): Promise<number> {
  const response = await owner.browser.post(
    '/api/wallet/add-pay-method',
    cardForm(await tokenFor(subject, { card_number: cardNumber })),
  );
  expect(response.statusCode, response.body).toBe(200);
  return paymentMethodResponse.parse(response.json()).payment_method.payment_method_id;
}

/** A Canadian bank account stored for `owner`, with an account number of its own. */
export async function storedBank(owner: SignedIn): Promise<number> {
  const response = await owner.browser.post(
    '/api/wallet/add-pay-method',
    canadianBank({ account_no: String(100_000_000 + Math.floor(Math.random() * 899_999_999)) }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return paymentMethodResponse.parse(response.json()).payment_method.payment_method_id;
}
