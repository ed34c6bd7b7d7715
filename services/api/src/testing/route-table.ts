import {
  addressResponse,
  bitcoinQuote,
  contactResponse,
  errorEnvelope,
  personResponse,
  terminalResponse,
  uploadAvatarResponse,
  webhookCreatedResponse,
  type ErrorCode,
} from '@peeks/contracts';
import { schemaColumns } from '@peeks/db';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import { fund } from './money.ts';
import { processorHeaders, type TestApp, type TestBrowser } from './app.ts';
import { businessSignUp, personalSignUp } from './accounts.ts';
import { addressForm } from './addresses.ts';
import { checkoutForm, newCheckout } from './checkout.ts';
import { contactForm } from './contacts.ts';
import { merchantEdit, signedUp, terminal, type SignedIn } from './merchants.ts';
import { saleToOwner, settlementOfOwner } from './merchant-space.ts';
import {
  enteredDeposit,
  flaggedBitcoinDeposit,
  pendingBan,
  pendingCorrection,
  requestedWithdrawal,
  type Caller,
} from './operations.ts';
import { approvedChargeKey, cardEntry, cardForm, storedBank, storedCard, tokenFor } from './payment-methods.ts';
import { jpegWithExif, multipartBody, png, type Upload } from './uploads.ts';
import { ownLedgerId, paidByOwner } from './wallet.ts';
import { sequencedAndSigned } from './ledger-log.ts';
import { chosenAnswers, withPin } from './credentials.ts';
import { failedDelivery, hook } from './webhooks.ts';

/**
 * Every route of the API, classified: who may call it, and for a route that
 * names a record or id, how to make an owner's record and the request that
 * names it. The route-wide tests (authorization matrix, malformed input)
 * walk this table, and fail when the app serves a route it does not list.
 */
/** `processor`: the platform's server-to-server calls to the sandbox card processor, with its credential. */
export type Access = 'public' | 'signed-in' | 'merchant-only' | 'operator' | 'processor';

export interface RouteRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart/form-data body, for the upload routes. */
  form?: { fields: Record<string, string>; files: Record<string, Upload> };
  /** The URL to call, for a route with path parameters (`/api/user/avatar/:userId/:sha256`). */
  path?: string;
  /** Headers the caller adds: the processor credential. */
  headers?: Record<string, string>;
}

export interface RouteCase {
  access: Access;
  /** Whose request it is: a business user's for merchant routes and for routes that name a merchant, a finance operator's for the operations console. */
  owner: Caller;
  /** A request the owner may make; for a record route it names a record made for it now. */
  request: (owner: SignedIn, subject: TestApp) => Promise<RouteRequest>;
  /** The request names the owner's own record or id: anyone else is answered 404. */
  ownRecord: boolean;
  /** Body fields (dotted paths) that may be left out: optional, or with a default. */
  optional: readonly string[];
  /** The body may be left out (or null) altogether. */
  bodyOptional: boolean;
  /** An external party's call served here (the sandbox card processor): no session, no CSRF token. */
  csrfExempt: boolean;
}

type Options = Partial<Pick<RouteCase, 'owner' | 'ownRecord' | 'optional' | 'bodyOptional' | 'csrfExempt'>>;

function row(
  access: Access,
  request: (owner: SignedIn, subject: TestApp) => RouteRequest | Promise<RouteRequest>,
  options: Options = {},
): RouteCase {
  return {
    access,
    owner: access === 'merchant-only' ? 'business' : access === 'operator' ? 'operator' : 'personal',
    ownRecord: false,
    optional: [],
    bodyOptional: false,
    csrfExempt: false,
    ...options,
    request: async (owner, subject) => request(owner, subject),
  };
}

const body = (value: unknown): RouteRequest => ({ body: value });
const query = (value: Record<string, string | number>): RouteRequest => ({
  query: Object.fromEntries(Object.entries(value).map(([key, each]) => [key, String(each)])),
});
const ownRecord = { ownRecord: true };
const merchantRecord = { ownRecord: true, owner: 'business' as const };
const { password } = personalSignUp() as { password: string };
const newPassword = 'Changed34';
const fresh = () => Math.random().toString(36).slice(2, 10);

async function made<T>(owner: SignedIn, url: string, form: unknown, parse: (answer: unknown) => T): Promise<T> {
  const response = await owner.browser.post(url, form);
  expect(response.statusCode, `${url} for a fixture`).toBe(200);
  return parse(response.json());
}
const newContact = (owner: SignedIn) =>
  made(owner, '/api/user/contact-create', contactForm(), (answer) => contactResponse.parse(answer).contact.contact_id);
const newAddress = (owner: SignedIn) =>
  made(owner, '/api/user/add-address', addressForm(), (answer) => addressResponse.parse(answer).address.address_id);
const newTerminal = (owner: SignedIn) =>
  made(
    owner,
    '/api/user/create-merchant-terminal',
    terminal(owner, { terminal_id: `POS-${fresh()}` }),
    (answer) => terminalResponse.parse(answer).merchantTerminal.merchant_terminal_id,
  );
const newWebhook = (owner: SignedIn) =>
  made(
    owner,
    '/api/webhook/create-webhook',
    hook(),
    (answer) => webhookCreatedResponse.parse(answer).data.webhook.webhook_id,
  );
/** A bitcoin quote for the owner, as deposit-coins takes it back (parsing keeps the quote's fields only). */
const newBitcoinQuote = (owner: SignedIn) =>
  made(owner, '/api/account/get-bitcoin-info', { amount: 20 }, (answer) => bitcoinQuote.parse(answer));
async function userAgreement(subject: TestApp): Promise<number> {
  const found = await subject.database.db
    .selectFrom('agreements')
    .select('agreement_id')
    .where('audience', '=', 'user')
    .orderBy('agreement_id')
    .executeTakeFirstOrThrow();
  return found.agreement_id;
}

const avatarForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: {
    fields: { user_id: String(owner.user.user_id) },
    files: { file: { name: 'me.jpg', bytes: await jpegWithExif(64, 64), type: 'image/jpeg' } },
  },
});
const documentForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: {
    fields: {
      user_id: String(owner.user.user_id),
      document_type: 'passport',
      document_number: 'AB123456',
      issuing_country: 'CA',
      issue_date: '15-06-2020',
      expiry_date: '15-06-2030',
    },
    files: { file: { name: 'passport.png', bytes: await png(120, 80), type: 'image/png' } },
  },
});
/** The URL of an avatar the owner has just uploaded. */
async function newAvatar(owner: SignedIn): Promise<string> {
  const { form } = await avatarForm(owner);
  if (!form) throw new Error('no avatar form');
  const response = await send(owner.browser, 'POST', '/api/user/user-upload-avatar', { form });
  expect(response.statusCode, `avatar for a fixture: ${response.body.slice(0, 200)}`).toBe(200);
  return uploadAvatarResponse.parse(response.json()).avatar;
}

const processorCall = { csrfExempt: true };
const asPlatform = (value: unknown): RouteRequest => ({ body: value, headers: processorHeaders });
const ownerIdOf = (owner: SignedIn) => userOwnerId(owner.user.user_id);
/** A deposit waiting for the transfer it names, as the clearing form would describe that transfer. */
async function receivedTransfer(owner: SignedIn, subject: TestApp) {
  const deposit = await enteredDeposit(subject, ownerIdOf(owner));
  return {
    tx_id: deposit.txId,
    amount_received: deposit.amount,
    currency: deposit.currency,
    reference: deposit.reference,
  };
}
async function newWithdrawal(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, ownerIdOf(owner), 20_00);
  return requestedWithdrawal(subject, ownerIdOf(owner), 20_00);
}
/** A coin the owner holds, minted by a correction. */
async function newCoin(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, ownerIdOf(owner), 10_00);
  const coin = await subject.database.db
    .selectFrom('coins')
    .select('serial')
    .where('holder', '=', walletIdOf(ownerIdOf(owner), 'CON'))
    .executeTakeFirstOrThrow();
  return coin.serial;
}
/** The owner with coins in the wallet, and the global id of someone to pay. */
async function payerAndPayee(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, userOwnerId(owner.user.user_id), 100_000);
  return (await signedUp(subject, 'personal')).user.guser_id;
}
/** A checkout session of a new merchant's, and the owner funded to pay it. */
async function payableCheckout(owner: SignedIn, subject: TestApp) {
  await fund(subject, userOwnerId(owner.user.user_id), 100_000);
  return newCheckout(await signedUp(subject, 'business'));
}

const phoneRegions = [
  'phone_region',
  'support_phone_region',
  'contact_phone_region',
  'owner_phone_region',
  'address.address2',
];

export const routeTable: Record<string, RouteCase> = {
  'GET /api/health': row('public', () => ({})),
  'GET /api/docs': row('public', () => ({})),
  'GET /api/reference/': row('public', () => ({})),
  'GET /api/reference/js/scalar.js': row('public', () => ({})),
  'GET /api/session': row('public', () => ({})),
  'GET /api/category': row('public', () => ({})),
  'GET /api/category/subcategory': row('public', () => query({ categoryId: 3 })),
  'POST /api/login': row('public', (owner) => body({ username: owner.user.username, password })),
  'POST /api/logout': row('public', () => body({}), { bodyOptional: true }),
  'POST /api/register/personal': row('public', () => body(personalSignUp())),
  'POST /api/register/business': row('public', () => body(businessSignUp()), { optional: phoneRegions }),
  'POST /api/user/get-recovery-email': row('public', (owner) => body({ username: owner.user.username })),
  'POST /api/user/send-recovery-code': row('public', (owner) => body({ username: owner.user.username })),
  'POST /api/user/check-recovery-code': row('public', (owner) =>
    body({ username: owner.user.username, recoveryCode: '123456' }),
  ),
  'POST /api/user/reset-password': row(
    'public',
    (owner) =>
      body({
        username: owner.user.username,
        recoveryCode: '123456',
        userPassword: newPassword,
        confirmPassword: newPassword,
      }),
    { optional: ['security_answers'] },
  ),

  'GET /api/user/user-lookup': row('signed-in', (owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/perm': row('signed-in', (owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/merchant-lookup': row('signed-in', (owner) => query({ id: owner.merchantId }), {
    ...ownRecord,
    owner: 'business',
  }),
  'POST /api/merchant/switch-merchant': row('signed-in', (owner) => body({ merchant_id: owner.merchantId }), {
    ...ownRecord,
    owner: 'business',
  }),
  'GET /api/user/user-list': row('signed-in', () => query({ search: 'user' })),
  'GET /api/user/recipient-lookup': row('signed-in', async (_owner, subject) =>
    query({ guser_id: (await signedUp(subject, 'personal')).user.guser_id }),
  ),

  'POST /api/user/change-password': row(
    'signed-in',
    (owner) =>
      body({
        id: owner.user.user_id,
        old_password: password,
        new_password: newPassword,
        new_password_repeat: newPassword,
      }),
    ownRecord,
  ),
  'POST /api/user/update-user': row(
    'signed-in',
    (owner) =>
      body({
        user_id: owner.user.user_id,
        name_first: 'Anne',
        name_last: 'Tremblay',
        email: owner.user.email,
        phone: '6135550101',
        phone_region: '+1',
        country: 'CA',
      }),
    { ...ownRecord, optional: ['phone_region'] },
  ),
  'POST /api/user/get-user-prefs': row(
    'signed-in',
    (owner) => body({ user_id: owner.user.user_id, section: ['all'] }),
    { ...ownRecord, optional: ['section'] },
  ),
  'POST /api/user/user-config-update': row(
    'signed-in',
    (owner) => body({ user_id: owner.user.user_id, config: { newsletter: true } }),
    ownRecord,
  ),

  'GET /api/user/security-settings': row('signed-in', () => ({})),
  'GET /api/user/security-questions': row('signed-in', () => ({})),
  'POST /api/user/set-pin': row('signed-in', () => body({ password, pin: '2580', pin_repeat: '2580' })),
  'POST /api/user/change-pin': row('signed-in', async (owner) =>
    body({ old_pin: await withPin(owner), new_pin: '1470', new_pin_repeat: '1470' }),
  ),
  'POST /api/user/verify-pin': row('signed-in', async (owner) => body({ pin: await withPin(owner) })),
  'POST /api/user/set-security-questions': row('signed-in', () => body({ password, questions: chosenAnswers() })),

  'GET /api/user/address-list': row('signed-in', () => query({ offset: 0, limit: 10 })),
  'POST /api/user/add-address': row('signed-in', () => body(addressForm()), { optional: ['address2'] }),
  'POST /api/user/update-address': row(
    'signed-in',
    async (owner) => body({ ...addressForm({ city: 'Gatineau' }), address_id: await newAddress(owner) }),
    { ...ownRecord, optional: ['address2'] },
  ),
  'POST /api/user/delete-address': row(
    'signed-in',
    async (owner) => body({ address_id: await newAddress(owner) }),
    ownRecord,
  ),

  'GET /api/user/contact-list': row('signed-in', () => ({})),
  'GET /api/user/contact-lookup': row('signed-in', async (owner) => query({ id: await newContact(owner) }), ownRecord),
  'POST /api/user/contact-create': row('signed-in', () => body(contactForm()), {
    optional: ['address2', 'phone_region'],
  }),
  'POST /api/user/recipient-create': row(
    'signed-in',
    () => body(contactForm({ bank_name: 'Banque Laurentienne', institution_no: '039', account_no: '1234567' })),
    { optional: ['address2', 'phone_region'] },
  ),
  'POST /api/user/contact-update': row(
    'signed-in',
    async (owner) => body({ ...contactForm({ city: 'Gatineau' }), contact_id: await newContact(owner) }),
    {
      ...ownRecord,
      optional: ['address2', 'phone_region'],
    },
  ),
  'POST /api/user/contact-delete': row(
    'signed-in',
    async (owner) => body({ contact_id: await newContact(owner) }),
    ownRecord,
  ),

  'POST /api/agreement/agreement-list': row('signed-in', (owner) => body({ user_id: owner.user.user_id }), {
    ...ownRecord,
    optional: ['user_id'],
    bodyOptional: true,
  }),
  'GET /api/agreement/agreement-lookup': row('signed-in', async (_owner, subject) =>
    query({ id: await userAgreement(subject) }),
  ),
  'POST /api/agreement/update-agreement': row(
    'signed-in',
    async (owner, subject) =>
      body({ user_id: owner.user.user_id, agreement_id: await userAgreement(subject), agreed_to: true }),
    {
      ...ownRecord,
      optional: ['user_id'],
    },
  ),

  'POST /api/user/user-upload-avatar': row('signed-in', avatarForm, ownRecord),
  // Contacts and recipients show each other's avatars, so any signed-in user may fetch one.
  'GET /api/user/avatar/:userId/:sha256': row('signed-in', async (owner) => ({ path: await newAvatar(owner) })),
  'POST /api/user/upload-document': row('signed-in', documentForm, ownRecord),
  'GET /api/user/document-list': row('signed-in', () => ({})),

  'POST /api/account/deposit-interac': row(
    'signed-in',
    () => body({ amount: 25, currency: 'CAD', securityQuestion: 'Name of my first pet?' }),
    {
      optional: ['currency', 'securityQuestion'],
    },
  ),
  'POST /api/account/deposit-zell': row('signed-in', () => body({ amount: 25, currency: 'USD' }), {
    optional: ['currency'],
  }),
  'POST /api/account/get-bitcoin-info': row('signed-in', () => body({ amount: 20 })),
  'POST /api/account/deposit-coins': row('signed-in', async (owner) =>
    body({ ...(await newBitcoinQuote(owner)), paymentMethodId: 'CRYPTO:BTC' }),
  ),
  'GET /api/account/deposits': row('signed-in', () => ({})),
  'GET /api/account/balance': row('signed-in', () => ({})),
  'POST /api/account/ledger': row('signed-in', () => body({ offset: 0, limit: 15 }), {
    optional: ['offset', 'limit'],
    bodyOptional: true,
  }),
  'POST /api/account/ledger-details': row(
    'signed-in',
    async (owner, subject) => body({ id: await ownLedgerId(owner, subject) }),
    ownRecord,
  ),
  'POST /api/account/transactions': row('signed-in', () => body({ offset: 0, limit: 15 }), {
    optional: ['offset', 'limit'],
    bodyOptional: true,
  }),
  'POST /api/account/transaction-details': row(
    'signed-in',
    async (owner, subject) => body({ id: await paidByOwner(owner, subject) }),
    ownRecord,
  ),
  'POST /api/account/forex-lookup': row('signed-in', () => body({ currency: 'USD' })),
  'POST /api/account/quote': row('signed-in', () =>
    body({ from_currency: 'USD', to_currency: 'CON', amount_in: 1000 }),
  ),
  'GET /api/wallet/list-coins': row('signed-in', () => query({ offset: 0, limit: 50 })),
  'GET /api/ledger/log-key': row('public', () => ({})),
  'GET /api/ledger/checkpoint': row('signed-in', async (owner, subject) => {
    await paidByOwner(owner, subject);
    await sequencedAndSigned(subject);
    return {};
  }),
  'GET /api/ledger/proof/inclusion': row(
    'signed-in',
    async (owner, subject) => {
      const txId = await paidByOwner(owner, subject);
      return query({ tx_id: txId, tree_size: await sequencedAndSigned(subject) });
    },
    ownRecord,
  ),
  'GET /api/ledger/proof/consistency': row('signed-in', async (owner, subject) => {
    await paidByOwner(owner, subject);
    return query({ from: 1, to: await sequencedAndSigned(subject) });
  }),
  // The WebSocket of live updates; a plain GET, as the table sends, is 426 Upgrade Required (see live.test.ts for the socket).
  'GET /api/live': row('signed-in', () => ({})),
  'GET /api/wallet/list-audit': row(
    'signed-in',
    async (owner, subject) => query({ reference_no: await paidByOwner(owner, subject) }),
    ownRecord,
  ),

  'POST /api/merchant/update-merchant': row(
    'merchant-only',
    (owner) => body(merchantEdit({ merchant_id: owner.merchantId })),
    { ...ownRecord, optional: ['merchant_id'] },
  ),
  'POST /api/merchant/return-sale': row(
    'merchant-only',
    async (owner, subject) => body({ tx_id: await saleToOwner(owner, subject), amount: 1_00, reason: 'Damaged' }),
    ownRecord,
  ),
  'GET /api/merchant/dashboard': row('merchant-only', () => ({})),
  'GET /api/merchant/transfers': row('merchant-only', () => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/returns': row('merchant-only', () => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/sale': row(
    'merchant-only',
    async (owner, subject) => query({ tx_id: await saleToOwner(owner, subject) }),
    ownRecord,
  ),
  'GET /api/merchant/settlements': row('merchant-only', () => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/settlement': row(
    'merchant-only',
    async (owner, subject) => query({ batch_id: await settlementOfOwner(owner, subject) }),
    ownRecord,
  ),
  'GET /api/merchant/report': row('merchant-only', () => query({ from: '2026-01-01', to: '2026-12-31' })),
  'GET /api/merchant/report.csv': row('merchant-only', () => query({ from: '2026-01-01', to: '2026-12-31' })),
  'POST /api/sandbox/partial-refunds': row(
    'processor',
    async (_owner, subject) =>
      asPlatform({ idempotency_key: await approvedChargeKey(subject), refund_key: `refund-${fresh()}`, amount: 100 }),
    processorCall,
  ),
  'GET /api/merchant-terminal/list': row(
    'merchant-only',
    (owner) => query({ merchant_id: owner.merchantId }),
    ownRecord,
  ),
  'POST /api/user/create-merchant-terminal': row(
    'merchant-only',
    (owner) => body(terminal(owner, { terminal_id: `POS-${fresh()}` })),
    ownRecord,
  ),
  'POST /api/user/update-merchant-terminal': row(
    'merchant-only',
    async (owner) =>
      body(terminal(owner, { terminal_id: `POS-${fresh()}`, merchant_terminal_id: await newTerminal(owner) })),
    ownRecord,
  ),
  'POST /api/merchant-terminal/delete': row(
    'merchant-only',
    async (owner) => body({ merchant_terminal_id: await newTerminal(owner) }),
    ownRecord,
  ),

  // Any signed-in user has webhooks; the table's owner acts for a merchant (personal ones: webhooks.test.ts).
  'POST /api/webhook/list-webhook': row('signed-in', (owner) => body({ merchant_id: owner.merchantId }), {
    ...merchantRecord,
    optional: ['merchant_id'],
    bodyOptional: true,
  }),
  'GET /api/webhook/lookup-webhook': row(
    'signed-in',
    async (owner) => query({ id: await newWebhook(owner) }),
    merchantRecord,
  ),
  'POST /api/webhook/create-webhook': row('signed-in', (owner) => body(hook({ merchant_id: owner.merchantId })), {
    ...merchantRecord,
    optional: ['merchant_id'],
  }),
  'POST /api/webhook/update-webhook': row(
    'signed-in',
    async (owner) =>
      body(hook({ merchant_id: owner.merchantId, webhook_id: await newWebhook(owner), state: 'disabled' })),
    { ...merchantRecord, optional: ['merchant_id'] },
  ),
  'POST /api/webhook/delete-webhook': row(
    'signed-in',
    async (owner) => body({ webhook_id: await newWebhook(owner) }),
    merchantRecord,
  ),
  'POST /api/webhook/rotate-secret': row(
    'signed-in',
    async (owner) => body({ webhook_id: await newWebhook(owner) }),
    merchantRecord,
  ),
  'POST /api/webhook/send-test-event': row(
    'signed-in',
    async (owner) => body({ webhook_id: await newWebhook(owner), event: 'purchase' }),
    { ...merchantRecord, optional: ['event'] },
  ),
  'POST /api/webhook/list-deliveries': row(
    'signed-in',
    async (owner) => body({ webhook_id: await newWebhook(owner) }),
    { ...merchantRecord, optional: ['offset', 'limit'] },
  ),
  'POST /api/webhook/replay-delivery': row(
    'signed-in',
    async (owner, subject) =>
      body({ delivery_id: await failedDelivery(subject, owner.merchantId, await newWebhook(owner)) }),
    merchantRecord,
  ),

  'POST /api/sandbox/refunds': row(
    'processor',
    async (_owner, subject) => asPlatform({ idempotency_key: await approvedChargeKey(subject) }),
    processorCall,
  ),
  'GET /api/sandbox/tokenizer': row('public', () => ({})),
  'POST /api/sandbox/tokenize': row('public', () => body(cardEntry()), processorCall),
  'POST /api/sandbox/card-lookup': row(
    'processor',
    async (_owner, subject) => asPlatform({ token: await tokenFor(subject) }),
    processorCall,
  ),
  'POST /api/sandbox/charges': row(
    'processor',
    async (_owner, subject) =>
      asPlatform({ token: await tokenFor(subject), amount: 500, currency: 'USD', idempotency_key: `key-${fresh()}` }),
    processorCall,
  ),

  'GET /api/wallet/payment-provider-lookup': row('signed-in', () => query({ provider: 'sandbox' })),
  'POST /api/wallet/add-pay-method': row(
    'signed-in',
    async (_owner, subject) => body(cardForm(await tokenFor(subject))),
    {
      optional: ['billing_address.address2', 'shipping_address.shipping_address2'],
    },
  ),
  'POST /api/account/pay-method': row('signed-in', (owner) => body({ user_id: owner.user.user_id }), {
    ...ownRecord,
    optional: ['user_id'],
    bodyOptional: true,
  }),
  'POST /api/account/user-payment-method-update': row(
    'signed-in',
    async (owner, subject) => body({ paymentMethodId: await storedCard(subject, owner), make_default: true }),
    ownRecord,
  ),
  'POST /api/account/user-payment-method-delete': row(
    'signed-in',
    async (owner, subject) => body({ paymentMethodId: await storedCard(subject, owner) }),
    ownRecord,
  ),
  'POST /api/account/purchase': row(
    'signed-in',
    async (owner, subject) =>
      body({ payment_method_id: await storedCard(subject, owner), coin_amt: 5000, currency: 'USD' }),
    {
      ...ownRecord,
      optional: ['currency'],
    },
  ),
  'POST /api/account/deposit-fund': row(
    'signed-in',
    async (owner, subject) =>
      body({ amount: 2500, currency: 'USD', paymentMethodId: await storedCard(subject, owner) }),
    {
      ...ownRecord,
      optional: ['currency'],
    },
  ),
  'POST /api/account/withdraw': row(
    'signed-in',
    async (owner) => body({ amount: 100, currency: 'USD', paymentMethodId: await storedBank(owner) }),
    { ...ownRecord, optional: ['pin'] },
  ),
  'GET /api/operations/deposits': row('operator', () => query({ method: 'interac', limit: 20 })),
  'POST /api/operations/clear-deposit': row('operator', async (owner, subject) =>
    body(await receivedTransfer(owner, subject)),
  ),
  'POST /api/operations/reject-deposit': row('operator', async (owner, subject) =>
    body({ tx_id: (await enteredDeposit(subject, ownerIdOf(owner))).txId, reason: 'No transfer arrived' }),
  ),
  'GET /api/operations/withdrawals': row('operator', () => query({ currency: 'CON' })),
  'POST /api/operations/process-withdrawal': row('operator', async (owner, subject) =>
    body({ tx_id: await newWithdrawal(owner, subject), payout_reference: 'PAYOUT-1' }),
  ),
  'POST /api/operations/fail-withdrawal': row('operator', async (owner, subject) =>
    body({ tx_id: await newWithdrawal(owner, subject), reason: 'Card closed' }),
  ),
  'POST /api/operations/correct-balance': row('operator', (owner) =>
    body({ user_id: owner.user.user_id, currency: 'CON', amount: 10_00, reason: 'Goodwill credit' }),
  ),
  'GET /api/operations/corrections': row('operator', () => query({ limit: 10 })),
  'POST /api/operations/approve-correction': row('operator', async (owner, subject) =>
    body({ correction_id: await pendingCorrection(subject, ownerIdOf(owner)) }),
  ),
  'POST /api/operations/reject-correction': row('operator', async (owner, subject) =>
    body({ correction_id: await pendingCorrection(subject, ownerIdOf(owner)), reason: 'No double charge found' }),
  ),
  'GET /api/operations/coin-trail': row('operator', async (owner, subject) =>
    query({ serial: await newCoin(owner, subject) }),
  ),
  'GET /api/operations/events': row('operator', () => query({ stream: 'ledger-', limit: 10 })),
  'GET /api/operations/ledger-verify': row('operator', () => ({})),
  'POST /api/operations/ledger-verify': row('operator', () => body({}), { bodyOptional: true }),
  'GET /api/operations/platform-balances': row('operator', () => ({})),
  'GET /api/operations/ledger-log': row('operator', () => ({})),
  'GET /api/operations/emails': row('operator', () => query({ state: 'unsent', limit: 10 })),
  'GET /api/operations/bitcoin-deposits': row('operator', () => query({ state: 'flagged', limit: 10 })),
  'GET /api/operations/overview': row('operator', () => ({})),
  'GET /api/operations/people': row('operator', (owner) => query({ q: owner.user.username.slice(0, 4), limit: 5 })),
  'GET /api/operations/person': row('operator', (owner) => query({ user_id: owner.user.user_id })),
  'GET /api/operations/audit': row('operator', () => query({ limit: 10 })),
  'POST /api/operations/revoke-session': row('operator', async (owner, subject) => {
    const person = await signedUp(subject, 'personal');
    const view = await owner.browser.get(`/api/operations/person?user_id=${String(person.user.user_id)}`);
    const [session] = personResponse.parse(view.json()).sessions;
    return body({ user_id: person.user.user_id, session_id: session?.session_id ?? '', reason: 'Lost phone' });
  }),
  'POST /api/operations/ban-user': row('operator', async (_owner, subject) =>
    body({ user_id: (await signedUp(subject, 'personal')).user.user_id, reason: 'Chargeback fraud' }),
  ),
  'GET /api/operations/bans': row('operator', () => query({ limit: 10 })),
  'POST /api/operations/approve-ban': row('operator', async (_owner, subject) =>
    body({ ban_id: await pendingBan(subject) }),
  ),
  'POST /api/operations/reject-ban': row('operator', async (_owner, subject) =>
    body({ ban_id: await pendingBan(subject), reason: 'Not the operator in the report' }),
  ),
  'POST /api/operations/unban-user': row('operator', async (_owner, subject) =>
    body({ user_id: (await signedUp(subject, 'personal')).user.user_id, reason: 'Cleared by support' }),
  ),
  'POST /api/operations/resolve-bitcoin-deposit': row(
    'operator',
    async (owner, subject) => {
      const deposit = await flaggedBitcoinDeposit(subject, owner.user.user_id, {
        flag: 'underpaid',
        confirmedSats: 15_000,
      });
      return body({ tx_id: deposit.txId, resolution: 'credit', reason: 'The user sent what they had' });
    },
    { optional: ['refund_address'] },
  ),
  // Funded by the owner's card: another user naming it is answered 404 (10501); without it the wallet pays.
  'POST /api/account/send-fund': row(
    'signed-in',
    async (owner, subject) =>
      body({
        guser_id: await payerAndPayee(owner, subject),
        amount: 250,
        currency: 'CON',
        paymentMethodId: await storedCard(subject, owner),
      }),
    { ...ownRecord, optional: ['currency', 'paymentMethodId'] },
  ),
  'POST /api/checkout/create-session': row('merchant-only', () => body(checkoutForm()), {
    optional: ['currency', 'expires_in'],
  }),
  'GET /api/checkout/session-details': row(
    'merchant-only',
    async (owner) => query({ id: (await newCheckout(owner)).id }),
    ownRecord,
  ),
  // The link's token is what opens a session, to a guest too (the Checkout page shows it beside the login box).
  'GET /api/checkout/session': row('public', async (owner, subject) => query(await payableCheckout(owner, subject))),
  'POST /api/checkout/pay': row(
    'signed-in',
    async (owner, subject) =>
      body({ ...(await payableCheckout(owner, subject)), paymentMethodId: await storedCard(subject, owner) }),
    {
      ...ownRecord,
      optional: ['paymentMethodId'],
    },
  ),
};

/** 'POST /api/login' as its method and URL. */
export function routeOf(key: string): { method: HTTPMethods; url: string } {
  const [method, url] = key.split(' ');
  if (method === undefined || url === undefined) throw new Error(`not a route key: ${key}`);
  return { method, url };
}

export const changesState = (method: string) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);

/**
 * Sends `request` as `browser`, with its session cookie and, unless `csrf`
 * is false, its CSRF token. The browser keeps any new cookie or token.
 */
export async function send(
  browser: TestBrowser,
  method: HTTPMethods,
  url: string,
  request: RouteRequest,
  { csrf = true } = {},
): Promise<LightMyRequestResponse> {
  const path = request.path ?? url;
  const target = request.query === undefined ? path : `${path}?${new URLSearchParams(request.query).toString()}`;
  if (csrf && request.form === undefined && (method === 'GET' || changesState(method)))
    return browser.request(method as 'GET' | 'POST', target, request.body, request.headers);
  const payload = request.form
    ? await multipartBody(request.form.fields, request.form.files)
    : request.body === undefined
      ? null
      : { payload: JSON.stringify(request.body), contentType: 'application/json' };
  return browser.app.inject({
    method,
    url: target,
    remoteAddress: browser.remoteAddress,
    headers: {
      ...(browser.cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${browser.cookie}` }),
      ...(csrf && browser.csrfToken !== undefined ? { 'x-csrf-token': browser.csrfToken } : {}),
      ...(payload ? { 'content-type': payload.contentType } : {}),
      ...request.headers,
    },
    ...(payload ? { payload: payload.payload } : {}),
  });
}

/** A refusal: this status, the error envelope, and when given this code among its errors. */
export function expectRefusal(
  response: LightMyRequestResponse,
  statusCode: number,
  code?: ErrorCode,
  context = '',
): void {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBe(statusCode);
  const envelope = errorEnvelope.safeParse(response.json());
  expect(envelope.success, `${context}: envelope`).toBe(true);
  if (code !== undefined)
    expect(
      envelope.data?.errors.map((each) => each.code),
      context,
    ).toContain(code);
}

/**
 * The tables as they are: every row of every table, hashed, and the number
 * of sessions. Left out: rate-limit counters (a refused request still
 * counts against its limit) and the sessions' own rows (seeing one moves
 * its idle deadline).
 */
export async function databaseState(subject: TestApp): Promise<string> {
  // Counters and heartbeats that change beside any request: rate windows, sessions (counted instead), and a
  // ledger verification an earlier row started, which keeps writing its progress in the background.
  const background = new Set(['rate_limit_hits', 'sessions', 'ledger_verifications']);
  const tables = Object.keys(schemaColumns).filter((table) => !background.has(table));
  const digests = tables.map(
    (table) =>
      sql`(SELECT ${sql.lit(table)} || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${sql.table(table)} AS t)`,
  );
  const { rows } = await sql<{
    state: string;
  }>`SELECT concat_ws(',', (SELECT count(*) FROM sessions), ${sql.join(digests)}) AS state`.execute(
    subject.database.db,
  );
  return rows[0]?.state ?? '';
}
