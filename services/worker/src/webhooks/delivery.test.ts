import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { jobId, resolveWithDns, type ResolveHost } from '@peeks/jobs';
import { postMessage } from './attempt.ts';
import { fanOut } from './fan-out.ts';
import { RETRY_SCHEDULE_MS } from './schedule.ts';
import {
  newMerchant,
  newSecret,
  newWebhook,
  startReceiver,
  verifyStandardWebhook,
  type Answer,
  type Receiver,
} from '../testing/webhooks.ts';

let database: TestDatabase;
let workers: Workers;
let ledger: LedgerSettings;
const receivers: Receiver[] = [];

// The real schedule a thousand times faster: 0, 5 ms, 300 ms, 1.8 s, ...
const SCHEDULE = RETRY_SCHEDULE_MS.map((wait) => wait / 1000);

beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    config: readConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }),
    log: createLogger({ LOG_LEVEL: 'silent' }),
    webhooks: { schedule: SCHEDULE, pollingIntervalSeconds: 0.5 },
  });
  ledger = { holdHours: 24, jobs: workers.jobs };
});
afterAll(async () => {
  await workers.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await database.drop();
});

async function receiving(secret: string, answer?: (attempt: number, id: string) => Answer): Promise<Receiver> {
  const receiver = await startReceiver(secret, answer);
  receivers.push(receiver);
  return receiver;
}

/** A merchant whose one webhook hears of purchases, at a receiver answering as told. */
async function merchantHearing(answer?: (attempt: number, id: string) => Answer) {
  const secret = newSecret();
  const receiver = await receiving(secret, answer);
  const merchant = await newMerchant(database.db);
  const webhookId = await newWebhook(database.db, merchant, { url: receiver.url, events: ['purchase'], secret });
  return { ...merchant, receiver, webhookId, secret };
}

const purchase = (ownerId: string, txId = randomUUID()) =>
  ({
    type: 'PurchaseCoins',
    txId,
    ownerId,
    charge: { amount: 10_00, currency: 'USD' },
    rateMicros: DEFAULT_RATE_MICROS,
    paymentMethod: { id: 'test', type: 'CC' },
  }) as const;

const deliveriesOf = (webhookId: number) =>
  database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).execute();

const attemptsOf = (deliveryId: string) =>
  database.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();

const settled = async (webhookId: number, state: 'delivered' | 'failed') =>
  expect.poll(async () => (await deliveriesOf(webhookId))[0]?.state, { timeout: 20_000, interval: 100 }).toBe(state);

describe('webhook delivery', () => {
  it('retries a failing endpoint until it answers 2xx: one delivery accepted, three attempts recorded, one webhook-id', async () => {
    const shop = await merchantHearing((attempt) =>
      attempt < 2 ? { status: 500, body: 'try later' } : { status: 200, body: 'ok' },
    );
    const txId = randomUUID();
    await executeLedgerCommand(database.db, purchase(shop.ownerId, txId), ledger);
    await settled(shop.webhookId, 'delivered');

    const [delivery] = await deliveriesOf(shop.webhookId);
    expect(shop.receiver.forged).toBe(0);
    expect(shop.receiver.received.map((each) => each.status)).toEqual([500, 500, 200]);
    expect(new Set(shop.receiver.received.map((each) => each.id))).toEqual(new Set([delivery?.delivery_id]));
    expect([...shop.receiver.accepted.values()]).toEqual([1]);
    const attempts = await attemptsOf(delivery?.delivery_id ?? '');
    expect(attempts.map((each) => [each.attempt, each.status_code, each.response_body])).toEqual([
      [1, 500, 'try later'],
      [2, 500, 'try later'],
      [3, 200, 'ok'],
    ]);
    expect(attempts.every((each) => each.latency_ms >= 0 && each.error === null)).toBe(true);
    // The 500s made the webhook failing; the 200 ended that.
    expect(
      (
        await database.db
          .selectFrom('webhooks')
          .select('failing_since')
          .where('webhook_id', '=', shop.webhookId)
          .executeTakeFirstOrThrow()
      ).failing_since,
    ).toBeNull();

    const body = JSON.parse(shop.receiver.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'purchase',
      data: { transaction_id: txId, ledger_event: 'CoinsPurchased', currency: 'CON' },
    });
    expect(new Date(String(body.timestamp)).getTime()).not.toBeNaN();

    // The fan-out once more, as after a worker died before reporting it: no second delivery, no second attempt.
    expect(await fanOut(database.db, workers.jobs, txId, 1, new Date())).toBe(0);
    expect(await deliveriesOf(shop.webhookId)).toHaveLength(1);
  });

  it('signs with the secret: a receiver holding another secret refuses every attempt', async () => {
    const secret = newSecret();
    const wrong = await receiving(newSecret());
    const merchant = await newMerchant(database.db);
    const webhookId = await newWebhook(database.db, merchant, { url: wrong.url, events: ['purchase'], secret });
    await executeLedgerCommand(database.db, purchase(merchant.ownerId), ledger);
    await expect.poll(() => wrong.forged, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    expect(wrong.accepted.size).toBe(0);
    expect((await deliveriesOf(webhookId))[0]?.state).toBe('pending');
  });

  it('tells only the webhooks subscribed to the event', async () => {
    const secret = newSecret();
    const receiver = await receiving(secret);
    const merchant = await newMerchant(database.db);
    const webhookId = await newWebhook(database.db, merchant, { url: receiver.url, events: ['settlement'], secret });
    const txId = randomUUID();
    await executeLedgerCommand(database.db, purchase(merchant.ownerId, txId), ledger);
    await expect
      .poll(() => jobState(jobId('webhook-fan-out', txId, 1)), { timeout: 20_000, interval: 100 })
      .toBe('completed');
    expect(await deliveriesOf(webhookId)).toHaveLength(0);
  });

  it('tells nothing of a personal wallet: its purchase enqueues no fan-out', async () => {
    const txId = randomUUID();
    await openWallets(database.db, 'user-900001', { currencies: ['CON'] });
    await executeLedgerCommand(database.db, purchase('user-900001', txId), ledger);
    expect(await jobCount(jobId('webhook-fan-out', txId, 1))).toBe(0);
  });

  it('leaves no fan-out job behind when the command rolls back', async () => {
    const shop = await newMerchant(database.db);
    const txId = randomUUID();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await executeLedgerCommand(trx, purchase(shop.ownerId, txId), ledger);
        expect(await jobCount(jobId('webhook-fan-out', txId, 1), trx)).toBe(1);
        throw new Error('the request failed after the purchase');
      }),
    ).rejects.toThrow('the request failed after the purchase');
    expect(await jobCount(jobId('webhook-fan-out', txId, 1))).toBe(0);
  });

  it('disables the webhook on 410 Gone, stops retrying and e-mails whoever set it up', async () => {
    const shop = await merchantHearing(() => ({ status: 410 }));
    await executeLedgerCommand(database.db, purchase(shop.ownerId), ledger);
    await settled(shop.webhookId, 'failed');
    const webhook = await database.db
      .selectFrom('webhooks')
      .select(['state', 'disabled_reason'])
      .where('webhook_id', '=', shop.webhookId)
      .executeTakeFirstOrThrow();
    expect(webhook).toEqual({ state: 'disabled', disabled_reason: 'The endpoint answered 410 Gone.' });
    expect(shop.receiver.received).toHaveLength(1);
    expect(await emailsTo(shop.email)).toEqual([
      {
        template: 'webhook-disabled',
        payload: { url: shop.receiver.url, reason: 'The endpoint answered 410 Gone.' },
      },
    ]);

    // A later event is told to no disabled webhook.
    await executeLedgerCommand(database.db, purchase(shop.ownerId), ledger);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await deliveriesOf(shop.webhookId)).toHaveLength(1);
  });

  it('disables a webhook whose deliveries have failed for days, and e-mails its owner once', async () => {
    const shop = await merchantHearing(() => ({ status: 503 }));
    await database.db
      .updateTable('webhooks')
      .set({ failing_since: new Date(Date.now() - 6 * 24 * 3600e3) })
      .where('webhook_id', '=', shop.webhookId)
      .execute();
    await executeLedgerCommand(database.db, purchase(shop.ownerId), ledger);
    await settled(shop.webhookId, 'failed');
    expect(
      await database.db
        .selectFrom('webhooks')
        .select(['state', 'disabled_reason'])
        .where('webhook_id', '=', shop.webhookId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ state: 'disabled', disabled_reason: 'Every delivery failed for 6 days.' });
    expect(shop.receiver.received).toHaveLength(1);
    expect((await emailsTo(shop.email)).map((each) => each.template)).toEqual(['webhook-disabled']);
  });

  it('waits as long as Retry-After asks when that is later than the schedule', async () => {
    const shop = await merchantHearing((attempt) =>
      attempt === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    await executeLedgerCommand(database.db, purchase(shop.ownerId), ledger);
    await settled(shop.webhookId, 'delivered');
    const [delivery] = await deliveriesOf(shop.webhookId);
    const [first, second] = await attemptsOf(delivery?.delivery_id ?? '');
    // The schedule alone would have tried again after 5 ms.
    expect((second?.attempted_at.getTime() ?? 0) - (first?.attempted_at.getTime() ?? 0)).toBeGreaterThanOrEqual(2000);
  });
});

describe('the destination, checked again when sending', () => {
  const target = (url: string) => ({
    url,
    secret: newSecret(),
    webhookId: 'msg_0123456789abcdef0123456789abcdef',
    body: '{}',
    sentAt: new Date(),
  });
  const strict = (resolve: ResolveHost) => ({ policy: { allowPrivate: false, resolve }, timeoutMs: 2000 });

  it('refuses a loopback address, and a name that now resolves to one (DNS rebinding), sending nothing', async () => {
    const receiver = await receiving(newSecret());
    const port = new URL(receiver.url).port;
    const rebound: ResolveHost = () => Promise.resolve(['127.0.0.1']);
    const mixed: ResolveHost = () => Promise.resolve(['93.184.215.14', '127.0.0.1']);
    expect(await postMessage(target(receiver.url), strict(resolveWithDns))).toMatchObject({
      statusCode: null,
      error: 'destination refused: private address',
    });
    expect(await postMessage(target(`http://hooks.example.test:${port}/hooks`), strict(rebound))).toMatchObject({
      statusCode: null,
      error: 'destination refused: private address',
    });
    expect(await postMessage(target(`http://hooks.example.test:${port}/hooks`), strict(mixed))).toMatchObject({
      statusCode: null,
      error: 'destination refused: private address',
    });
    expect(await postMessage(target(`http://localhost:${port}/hooks`), strict(resolveWithDns))).toMatchObject({
      statusCode: null,
      error: 'destination refused: private address',
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('connects to the address it checked, and with WEBHOOK_ALLOW_PRIVATE=1 to a private one', async () => {
    const secret = newSecret();
    const receiver = await receiving(secret);
    const port = new URL(receiver.url).port;
    const answer = await postMessage(
      { ...target(`http://hooks.example.test:${port}/hooks`), secret },
      {
        policy: { allowPrivate: true, resolve: () => Promise.resolve(['127.0.0.1']) },
        timeoutMs: 2000,
      },
    );
    expect(answer).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    const silent = http.createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const answer = await postMessage(target(`http://127.0.0.1:${port}/`), {
      policy: { allowPrivate: true, resolve: resolveWithDns },
      timeoutMs: 300,
    });
    expect(answer).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
    silent.closeAllConnections();
    silent.close();
  });
});

describe('verifyStandardWebhook (the receiver side)', () => {
  it('accepts the signature the spec describes and nothing else', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    // The example of the Standard Webhooks spec, at its own time.
    expect(verifyStandardWebhook(secret, headers, body, 1614265330_000)).toBe(true);
    expect(verifyStandardWebhook(secret, headers, body.replace('2', '3'), 1614265330_000)).toBe(false);
    expect(verifyStandardWebhook(secret, headers, body, 1614265330_000 + 10 * 60_000)).toBe(false);
  });
});

async function jobCount(id: string, db = database.db): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM pgboss.job WHERE id = ${id}::uuid`.execute(db);
  return rows[0]?.count ?? 0;
}

async function jobState(id: string): Promise<string | undefined> {
  const { rows } = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE id = ${id}::uuid`.execute(
    database.db,
  );
  return rows[0]?.state;
}

/** The outbox's messages to `recipient`, each with whether its send job exists (a message without one is never sent). */
async function emailsTo(recipient: string) {
  const emails = await database.db
    .selectFrom('email_outbox')
    .select(['email_id', 'template', 'payload'])
    .where('recipient', '=', recipient)
    .orderBy('email_id')
    .execute();
  for (const email of emails) expect(await jobCount(jobId('email-send', email.email_id)), 'its send job').toBe(1);
  return emails.map(({ template, payload }) => ({ template, payload }));
}
