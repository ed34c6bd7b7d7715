import { addressResponse, contactResponse, errorEnvelope, terminalResponse, uploadAvatarResponse, webhookCreatedResponse, type ErrorCode } from '@peeks/contracts';
import { schemaColumns } from '@peeks/db';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import type { TestApp, TestBrowser } from '../test-app.ts';
import { businessSignUp, personalSignUp } from './accounts/fixtures.ts';
import { addressForm } from './addresses/fixtures.ts';
import { contactForm } from './contacts/fixtures.ts';
import { merchantEdit, terminal, type SignedIn } from './merchants/testing.ts';
import { jpegWithExif, multipartBody, png, type Upload } from './uploads/test-support.ts';
import { ownLedgerId, paidByOwner } from './wallet/fixtures.ts';
import { hook } from './webhooks/fixtures.ts';

/**
 * Every route of the API, classified: who may call it, and for a route that
 * names a record or id, how to make an owner's record and the request that
 * names it. The route-wide tests (authorization matrix, malformed input)
 * walk this table, and fail when the app serves a route it does not list.
 */
export type Access = 'public' | 'signed-in' | 'merchant-only';

export interface RouteRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart/form-data body, for the upload routes. */
  form?: { fields: Record<string, string>; files: Record<string, Upload> };
  /** The URL to call, for a route with path parameters (`/api/user/avatar/:userId/:sha256`). */
  path?: string;
}

export interface RouteCase {
  access: Access;
  /** Whose request it is: a business user's for merchant routes and for routes that name a merchant. */
  owner: 'personal' | 'business';
  /** A request the owner may make; for a record route it names a record made for it now. */
  request: (owner: SignedIn, subject: TestApp) => Promise<RouteRequest>;
  /** The request names the owner's own record or id: anyone else is answered 404. */
  ownRecord: boolean;
  /** Body fields (dotted paths) that may be left out: optional, or with a default. */
  optional: readonly string[];
  /** The body may be left out (or null) altogether. */
  bodyOptional: boolean;
}

type Options = Partial<Pick<RouteCase, 'owner' | 'ownRecord' | 'optional' | 'bodyOptional'>>;

function row(access: Access, request: (owner: SignedIn, subject: TestApp) => RouteRequest | Promise<RouteRequest>, options: Options = {}): RouteCase {
  return {
    access,
    owner: access === 'merchant-only' ? 'business' : 'personal',
    ownRecord: false,
    optional: [],
    bodyOptional: false,
    ...options,
    request: async (owner, subject) => request(owner, subject),
  };
}

const body = (value: unknown): RouteRequest => ({ body: value });
const query = (value: Record<string, string | number>): RouteRequest => ({ query: Object.fromEntries(Object.entries(value).map(([key, each]) => [key, String(each)])) });
const ownRecord = { ownRecord: true };
const { password } = personalSignUp() as { password: string };
const newPassword = 'Changed34';
const fresh = () => Math.random().toString(36).slice(2, 10);

async function made<T>(owner: SignedIn, url: string, form: unknown, parse: (answer: unknown) => T): Promise<T> {
  const response = await owner.browser.post(url, form);
  expect(response.statusCode, `${url} for a fixture`).toBe(200);
  return parse(response.json());
}
const newContact = (owner: SignedIn) => made(owner, '/api/user/contact-create', contactForm(), (answer) => contactResponse.parse(answer).contact.contact_id);
const newAddress = (owner: SignedIn) => made(owner, '/api/user/add-address', addressForm(), (answer) => addressResponse.parse(answer).address.address_id);
const newTerminal = (owner: SignedIn) =>
  made(owner, '/api/user/create-merchant-terminal', terminal(owner, { terminal_id: `POS-${fresh()}` }), (answer) => terminalResponse.parse(answer).merchantTerminal.merchant_terminal_id);
const newWebhook = (owner: SignedIn) => made(owner, '/api/webhook/create-webhook', hook(), (answer) => webhookCreatedResponse.parse(answer).data.webhook.webhook_id);
async function userAgreement(subject: TestApp): Promise<number> {
  const found = await subject.database.db.selectFrom('agreements').select('agreement_id').where('audience', '=', 'user').orderBy('agreement_id').executeTakeFirstOrThrow();
  return found.agreement_id;
}

const avatarForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: { fields: { user_id: String(owner.user.user_id) }, files: { file: { name: 'me.jpg', bytes: await jpegWithExif(64, 64), type: 'image/jpeg' } } },
});
const documentForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: {
    fields: {
      user_id: String(owner.user.user_id), document_type: 'passport', document_number: 'AB123456', issuing_country: 'CA',
      issue_date: '15-06-2020', expiry_date: '15-06-2030',
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

const phoneRegions = ['phone_region', 'support_phone_region', 'contact_phone_region', 'owner_phone_region', 'address.address2'];

export const routeTable: Record<string, RouteCase> = {
  'GET /api/health': row('public', () => ({})),
  'GET /api/docs': row('public', () => ({})),
  'GET /api/session': row('public', () => ({})),
  'GET /api/category': row('public', () => ({})),
  'GET /api/category/subcategory': row('public', () => query({ categoryId: 3 })),
  'POST /api/login': row('public', (owner) => body({ username: owner.user.username, password })),
  'POST /api/logout': row('public', () => body({}), { bodyOptional: true }),
  'POST /api/register/personal': row('public', () => body(personalSignUp())),
  'POST /api/register/business': row('public', () => body(businessSignUp()), { optional: phoneRegions }),
  'POST /api/user/get-recovery-email': row('public', (owner) => body({ username: owner.user.username })),
  'POST /api/user/send-recovery-code': row('public', (owner) => body({ username: owner.user.username })),
  'POST /api/user/check-recovery-code': row('public', (owner) => body({ username: owner.user.username, recoveryCode: '123456' })),
  'POST /api/user/reset-password': row('public', (owner) =>
    body({ username: owner.user.username, recoveryCode: '123456', userPassword: newPassword, confirmPassword: newPassword }),
  ),

  'GET /api/user/user-lookup': row('signed-in', (owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/perm': row('signed-in', (owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/merchant-lookup': row('signed-in', (owner) => query({ id: owner.merchantId }), { ...ownRecord, owner: 'business' }),
  'POST /api/merchant/switch-merchant': row('signed-in', (owner) => body({ merchant_id: owner.merchantId }), { ...ownRecord, owner: 'business' }),
  'GET /api/user/user-list': row('signed-in', () => query({ search: 'user' })),

  'POST /api/user/change-password': row('signed-in', (owner) => body({ id: owner.user.user_id, old_password: password, new_password: newPassword, new_password_repeat: newPassword }), ownRecord),
  'POST /api/user/update-user': row(
    'signed-in',
    (owner) => body({ user_id: owner.user.user_id, name_first: 'Anne', name_last: 'Tremblay', email: owner.user.email, phone: '6135550101', phone_region: '+1', country: 'CA' }),
    { ...ownRecord, optional: ['phone_region'] },
  ),
  'POST /api/user/get-user-prefs': row('signed-in', (owner) => body({ user_id: owner.user.user_id, section: ['all'] }), { ...ownRecord, optional: ['section'] }),
  'POST /api/user/user-config-update': row('signed-in', (owner) => body({ user_id: owner.user.user_id, config: { newsletter: true } }), ownRecord),

  'GET /api/user/address-list': row('signed-in', () => query({ offset: 0, limit: 10 })),
  'POST /api/user/add-address': row('signed-in', () => body(addressForm()), { optional: ['address2'] }),
  'POST /api/user/update-address': row('signed-in', async (owner) => body({ ...addressForm({ city: 'Gatineau' }), address_id: await newAddress(owner) }), { ...ownRecord, optional: ['address2'] }),
  'POST /api/user/delete-address': row('signed-in', async (owner) => body({ address_id: await newAddress(owner) }), ownRecord),

  'GET /api/user/contact-list': row('signed-in', () => ({})),
  'GET /api/user/contact-lookup': row('signed-in', async (owner) => query({ id: await newContact(owner) }), ownRecord),
  'POST /api/user/contact-create': row('signed-in', () => body(contactForm()), { optional: ['address2', 'phone_region'] }),
  'POST /api/user/contact-update': row('signed-in', async (owner) => body({ ...contactForm({ city: 'Gatineau' }), contact_id: await newContact(owner) }), {
    ...ownRecord,
    optional: ['address2', 'phone_region'],
  }),
  'POST /api/user/contact-delete': row('signed-in', async (owner) => body({ contact_id: await newContact(owner) }), ownRecord),

  'POST /api/agreement/agreement-list': row('signed-in', (owner) => body({ user_id: owner.user.user_id }), { ...ownRecord, optional: ['user_id'], bodyOptional: true }),
  'GET /api/agreement/agreement-lookup': row('signed-in', async (_owner, subject) => query({ id: await userAgreement(subject) })),
  'POST /api/agreement/update-agreement': row('signed-in', async (owner, subject) => body({ user_id: owner.user.user_id, agreement_id: await userAgreement(subject), agreed_to: true }), {
    ...ownRecord,
    optional: ['user_id'],
  }),

  'POST /api/user/user-upload-avatar': row('signed-in', avatarForm, ownRecord),
  // Contacts and recipients show each other's avatars, so any signed-in user may fetch one.
  'GET /api/user/avatar/:userId/:sha256': row('signed-in', async (owner) => ({ path: await newAvatar(owner) })),
  'POST /api/user/upload-document': row('signed-in', documentForm, ownRecord),
  'GET /api/user/document-list': row('signed-in', () => ({})),

  'GET /api/account/balance': row('signed-in', () => ({})),
  'POST /api/account/ledger': row('signed-in', () => body({ offset: 0, limit: 15 }), { optional: ['offset', 'limit'], bodyOptional: true }),
  'POST /api/account/ledger-details': row('signed-in', async (owner, subject) => body({ id: await ownLedgerId(owner, subject) }), ownRecord),
  'POST /api/account/transactions': row('signed-in', () => body({ offset: 0, limit: 15 }), { optional: ['offset', 'limit'], bodyOptional: true }),
  'POST /api/account/transaction-details': row('signed-in', async (owner, subject) => body({ id: await paidByOwner(owner, subject) }), ownRecord),
  'POST /api/account/forex-lookup': row('signed-in', () => body({ currency: 'USD' })),
  'GET /api/wallet/list-coins': row('signed-in', () => query({ offset: 0, limit: 50 })),
  // The WebSocket of live updates; a plain GET, as the table sends, is 426 Upgrade Required (see live.test.ts for the socket).
  'GET /api/live': row('signed-in', () => ({})),
  'GET /api/wallet/list-audit': row('signed-in', async (owner, subject) => query({ reference_no: await paidByOwner(owner, subject) }), ownRecord),

  'POST /api/merchant/update-merchant': row('merchant-only', (owner) => body(merchantEdit({ merchant_id: owner.merchantId })), { ...ownRecord, optional: ['merchant_id'] }),
  'GET /api/merchant-terminal/list': row('merchant-only', (owner) => query({ merchant_id: owner.merchantId }), ownRecord),
  'POST /api/user/create-merchant-terminal': row('merchant-only', (owner) => body(terminal(owner, { terminal_id: `POS-${fresh()}` })), ownRecord),
  'POST /api/user/update-merchant-terminal': row('merchant-only', async (owner) => body(terminal(owner, { terminal_id: `POS-${fresh()}`, merchant_terminal_id: await newTerminal(owner) })), ownRecord),
  'POST /api/merchant-terminal/delete': row('merchant-only', async (owner) => body({ merchant_terminal_id: await newTerminal(owner) }), ownRecord),

  'POST /api/webhook/list-webhook': row('merchant-only', (owner) => body({ merchant_id: owner.merchantId }), { ...ownRecord, optional: ['merchant_id'], bodyOptional: true }),
  'GET /api/webhook/lookup-webhook': row('merchant-only', async (owner) => query({ id: await newWebhook(owner) }), ownRecord),
  'POST /api/webhook/create-webhook': row('merchant-only', (owner) => body(hook({ merchant_id: owner.merchantId })), { ...ownRecord, optional: ['merchant_id'] }),
  'POST /api/webhook/update-webhook': row('merchant-only', async (owner) => body(hook({ merchant_id: owner.merchantId, webhook_id: await newWebhook(owner), state: 'disabled' })), {
    ...ownRecord,
    optional: ['merchant_id'],
  }),
  'POST /api/webhook/delete-webhook': row('merchant-only', async (owner) => body({ webhook_id: await newWebhook(owner) }), ownRecord),
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
export async function send(browser: TestBrowser, method: HTTPMethods, url: string, request: RouteRequest, { csrf = true } = {}): Promise<LightMyRequestResponse> {
  const path = request.path ?? url;
  const target = request.query === undefined ? path : `${path}?${new URLSearchParams(request.query).toString()}`;
  if (csrf && request.form === undefined && (method === 'GET' || changesState(method))) return browser.request(method as 'GET' | 'POST', target, request.body);
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
    },
    ...(payload ? { payload: payload.payload } : {}),
  });
}

/** A refusal: this status, the error envelope, and when given this code among its errors. */
export function expectRefusal(response: LightMyRequestResponse, statusCode: number, code?: ErrorCode, context = ''): void {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBe(statusCode);
  const envelope = errorEnvelope.safeParse(response.json());
  expect(envelope.success, `${context}: envelope`).toBe(true);
  if (code !== undefined) expect(envelope.data?.errors.map((each) => each.code), context).toContain(code);
}

/**
 * The tables as they are: every row of every table, hashed, and the number
 * of sessions. Left out: rate-limit counters (a refused request still
 * counts against its limit) and the sessions' own rows (seeing one moves
 * its idle deadline).
 */
export async function databaseState(subject: TestApp): Promise<string> {
  const tables = Object.keys(schemaColumns).filter((table) => table !== 'rate_limit_hits' && table !== 'sessions');
  const digests = tables.map((table) => sql`(SELECT ${sql.lit(table)} || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${sql.table(table)} AS t)`);
  const { rows } = await sql<{ state: string }>`SELECT concat_ws(',', (SELECT count(*) FROM sessions), ${sql.join(digests)}) AS state`.execute(subject.database.db);
  return rows[0]?.state ?? '';
}
