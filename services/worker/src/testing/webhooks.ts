import type { Database } from '@peeks/db';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { openWallets } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A merchant's webhook receiver, for tests and the benchmark: a real HTTP
 * server on loopback that checks every request's signature the way the
 * Standard Webhooks spec tells a receiver to, written here from the spec
 * rather than borrowed from the sender, so a signing mistake shows.
 */

/** Standard Webhooks verification: any "v1,<sig>" of the space-separated list matches, and the timestamp is within 5 minutes. */
export function verifyStandardWebhook(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
  now = Date.now(),
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((each) => {
    const [version, signature] = each.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface Received {
  id: string;
  body: string;
  at: number;
  status: number;
}

/** How the receiver answers a request; `afterMs` holds the answer back, keeping the request in flight. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; afterMs?: number };

export interface Receiver {
  url: string;
  /** Every request, in order, with the status it was answered. */
  received: Received[];
  /** The webhook-ids answered 2xx: what the merchant acted on; a second 2xx for one id is a duplicate accepted. */
  accepted: Map<string, number>;
  /** Requests whose signature did not verify (answered 401). */
  forged: number;
  /** Every request, counted even when `received` is not kept. */
  requests: number;
  close: () => Promise<void>;
}

/**
 * Starts a receiver; `answer` picks each answer from the request's number
 * (0-based) for its webhook-id. An id already accepted is answered 200 and
 * not accepted again, as a receiver that drops duplicates does.
 */
export async function startReceiver(
  secret: string,
  answer: (attempt: number, id: string) => Answer = () => ({ status: 200 }),
  options: { keepRequests?: boolean } = {},
): Promise<Receiver> {
  // The benchmark sends hundreds of thousands: it counts them without keeping each.
  const keepRequests = options.keepRequests ?? true;
  const received: Received[] = [];
  const accepted = new Map<string, number>();
  const attempts = new Map<string, number>();
  let forged = 0;
  let requests = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id']);
      let reply: Answer;
      if (!verifyStandardWebhook(secret, request.headers, body)) {
        forged += 1;
        reply = { status: 401, body: 'bad signature' };
      } else if (accepted.has(id)) {
        accepted.set(id, (accepted.get(id) ?? 0) + 1);
        reply = { status: 200, body: 'duplicate dropped' };
      } else {
        const attempt = attempts.get(id) ?? 0;
        attempts.set(id, attempt + 1);
        reply = answer(attempt, id);
        if (reply.status >= 200 && reply.status < 300) accepted.set(id, 1);
      }
      requests += 1;
      if (keepRequests) received.push({ id, body, at: Date.now(), status: reply.status });
      const send = () => response.writeHead(reply.status, reply.headers).end(reply.body ?? '');
      if (reply.afterMs === undefined) send();
      else setTimeout(send, reply.afterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    accepted,
    get forged() {
      return forged;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A merchant (and the business user who manages it) with wallets, minimal rows written straight to the tables. */
export async function newMerchant(
  db: Kysely<Database>,
): Promise<{ merchantId: number; userId: number; ownerId: string; email: string }> {
  const tag = randomBytes(5).toString('hex');
  const now = new Date();
  const email = `shop_${tag}@example.com`;
  const user = await db
    .insertInto('users')
    .values({
      username: `shop_${tag}`,
      email,
      password_hash: 'not-a-hash',
      user_type: 'business',
      perms: [],
      birthday: '1990-01-01',
      country: 'US',
      currency: 'USD',
      terms_accepted: true,
      created_at: now,
      updated_at: now,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  const merchant = await db
    .insertInto('merchants')
    .values({
      name: `Shop ${tag}`,
      dba: 'Shop',
      website: 'https://shop.example.com',
      phone: '5555550100',
      phone_region: '+1',
      category_id: 1,
      sub_category_id: 1,
      business_type: 'LLC',
      date_established: '2020-01-01',
      monthly_sales: 1000,
      business_number: 'BN-1',
      business_country: 'US',
      address_email: email,
      address_phone: '5555550100',
      address_name_first: 'Sam',
      address_name_last: 'Shop',
      address1: '1 Main St',
      city: 'Town',
      province_state: 'CA',
      postal_code: '90210',
      country: 'US',
      support_url: 'https://shop.example.com/help',
      support_phone: '5555550100',
      support_phone_region: '+1',
      support_email: email,
      contact_name: 'Sam Shop',
      contact_email: email,
      contact_phone: '5555550100',
      contact_phone_region: '+1',
      owner_citizenship: 'US',
      owner_dob: '1980-01-01',
      owner_name: 'Sam Shop',
      owner_phone: '5555550100',
      owner_phone_region: '+1',
      owner_email: email,
      created_at: now,
      updated_at: now,
    })
    .returning('merchant_id')
    .executeTakeFirstOrThrow();
  const ownerId = merchantOwnerId(merchant.merchant_id);
  await openWallets(db, ownerId, { currencies: ['CON'] });
  return { merchantId: merchant.merchant_id, userId: user.user_id, ownerId, email };
}

/** A personal user with wallets, minimal rows written straight to the tables. */
export async function newPerson(db: Kysely<Database>): Promise<{ userId: number; ownerId: string }> {
  const tag = randomBytes(5).toString('hex');
  const now = new Date();
  const user = await db
    .insertInto('users')
    .values({
      username: `person_${tag}`,
      email: `person_${tag}@example.com`,
      password_hash: 'not-a-hash',
      user_type: 'personal',
      perms: [],
      birthday: '1990-01-01',
      country: 'CA',
      currency: 'CAD',
      terms_accepted: true,
      created_at: now,
      updated_at: now,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  const ownerId = userOwnerId(user.user_id);
  await openWallets(db, ownerId, { currencies: ['CON', 'CAD'] });
  return { userId: user.user_id, ownerId };
}

/** A webhook of the merchant (or, with merchantId null, the person's own), as the API's create-webhook stores it. */
export async function newWebhook(
  db: Kysely<Database>,
  owner: { merchantId: number | null; userId: number },
  fields: { url: string; events: string[]; secret: string },
): Promise<number> {
  const now = new Date();
  const row = await db
    .insertInto('webhooks')
    .values({
      merchant_id: owner.merchantId,
      user_id: owner.userId,
      state: 'enabled',
      url: fields.url,
      events: fields.events,
      secret: fields.secret,
      created_at: now,
      updated_at: now,
    })
    .returning('webhook_id')
    .executeTakeFirstOrThrow();
  return row.webhook_id;
}
