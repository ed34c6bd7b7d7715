import {
  errorEnvelope,
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
} from '@peeks/contracts';
import { DEFAULT_RATE_MICROS, merchantOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { startWorkers, type Workers } from '@peeks/worker';
import { startReceiver, type Receiver } from '@peeks/worker/testing';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, hook, signedUp, testAppOptions, type SignedIn, type TestApp } from '@peeks/api/testing';

let subject: TestApp;
let workers: Workers;
let merchant: SignedIn;
let other: SignedIn;
let receiver: Receiver;
let webhookId: number;

beforeAll(async () => {
  // Loopback receivers: private addresses allowed, as WEBHOOK_ALLOW_PRIVATE=1 does.
  subject = await createTestApp({ ...testAppOptions, webhooks: { ...testAppOptions.webhooks, allowPrivate: true } });
  workers = await startWorkers({
    databaseUrl: subject.database.url,
    db: subject.database.db,
    config: readConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }),
    log: createLogger({ LOG_LEVEL: 'silent' }),
    webhooks: { schedule: [0, 5, 300, 1800], pollingIntervalSeconds: 0.5 },
  });
  merchant = await signedUp(subject, 'business');
  other = await signedUp(subject, 'business');
  const created = webhookCreatedResponse.parse(
    (await merchant.browser.post('/api/webhook/create-webhook', hook({ events: ['purchase'] }))).json(),
  );
  // The first message fails once, so there are two attempts to read back.
  receiver = await startReceiver(created.data.secret, (attempt) =>
    attempt === 0 ? { status: 500, body: 'not yet' } : { status: 204 },
  );
  webhookId = created.data.webhook.webhook_id;
  const moved = await merchant.browser.post(
    '/api/webhook/update-webhook',
    hook({ webhook_id: webhookId, url: receiver.url, events: ['purchase'] }),
  );
  expect(moved.statusCode).toBe(200);
});
afterAll(async () => {
  await workers.stop();
  await receiver.close();
  await subject.close();
});

const problems = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const deliveries = async (who: SignedIn = merchant) =>
  webhookDeliveryListResponse.parse(
    (await who.browser.post('/api/webhook/list-deliveries', { webhook_id: webhookId })).json(),
  );

async function saleToMerchant(): Promise<string> {
  const txId = randomUUID();
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'PurchaseCoins',
      txId,
      ownerId: merchantOwnerId(merchant.merchantId),
      charge: { amount: 5_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'test', type: 'CC' },
    },
    subject.app.ledgerSettings,
  );
  return txId;
}

describe('webhook deliveries over the API', () => {
  let deliveryId = '';

  it("lists a webhook's deliveries with every attempt", async () => {
    const txId = await saleToMerchant();
    await expect
      .poll(async () => (await deliveries()).deliveries[0]?.state, { timeout: 20_000, interval: 200 })
      .toBe('delivered');
    const {
      deliveries: [delivery],
      total,
    } = await deliveries();
    expect(total).toBe(1);
    expect(delivery).toMatchObject({
      webhook_id: webhookId,
      event: 'purchase',
      transaction_id: txId,
      state: 'delivered',
      payload: { type: 'purchase', data: { transaction_id: txId } },
    });
    expect(delivery?.attempts.map((each) => [each.attempt, each.status_code, each.response_body])).toEqual([
      [1, 500, 'not yet'],
      [2, 204, ''],
    ]);
    deliveryId = delivery?.delivery_id ?? '';
    expect(receiver.received.map((each) => each.id)).toEqual([deliveryId, deliveryId]);
  });

  it('replays a delivery with the same webhook-id, as a new attempt', async () => {
    const response = await merchant.browser.post('/api/webhook/replay-delivery', { delivery_id: deliveryId });
    expect(response.statusCode).toBe(200);
    expect(webhookDeliveryResponse.parse(response.json()).delivery).toMatchObject({
      delivery_id: deliveryId,
      state: 'pending',
    });
    // While it is being attempted, a second replay is refused rather than run beside it.
    const again = await merchant.browser.post('/api/webhook/replay-delivery', { delivery_id: deliveryId });
    expect(again.statusCode).toBe(409);
    expect(problems(again)).toEqual([expect.objectContaining({ code: 40965 })]);

    await expect
      .poll(async () => (await deliveries()).deliveries[0]?.attempts.length, { timeout: 20_000, interval: 200 })
      .toBe(3);
    expect((await deliveries()).deliveries[0]).toMatchObject({
      state: 'delivered',
      attempts: [{ attempt: 1 }, { attempt: 2 }, { attempt: 3, status_code: 200 }],
    });
    expect(receiver.received.map((each) => each.id)).toEqual([deliveryId, deliveryId, deliveryId]);
    expect(receiver.forged).toBe(0);
  });

  it('refuses to replay to a disabled webhook', async () => {
    expect(
      (
        await merchant.browser.post(
          '/api/webhook/update-webhook',
          hook({ webhook_id: webhookId, url: receiver.url, events: ['purchase'], state: 'disabled' }),
        )
      ).statusCode,
    ).toBe(200);
    const response = await merchant.browser.post('/api/webhook/replay-delivery', { delivery_id: deliveryId });
    expect(response.statusCode).toBe(409);
    expect(problems(response)).toEqual([expect.objectContaining({ code: 40966 })]);
    const { rows } = await sql<{
      count: number;
    }>`SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'webhook-attempt' AND data->>'deliveryId' = ${deliveryId}`.execute(
      subject.database.db,
    );
    expect(rows[0]?.count).toBe(3);
    expect(
      (
        await merchant.browser.post(
          '/api/webhook/update-webhook',
          hook({ webhook_id: webhookId, url: receiver.url, events: ['purchase'] }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it("answers another merchant 404 for the webhook's deliveries and for replaying one", async () => {
    const listed = await other.browser.post('/api/webhook/list-deliveries', { webhook_id: webhookId });
    expect(listed.statusCode).toBe(404);
    expect(problems(listed)).toEqual([expect.objectContaining({ code: 40414 })]);
    const replayed = await other.browser.post('/api/webhook/replay-delivery', { delivery_id: deliveryId });
    expect(replayed.statusCode).toBe(404);
    expect(problems(replayed)).toEqual([expect.objectContaining({ code: 40465 })]);
    expect(receiver.received).toHaveLength(3);
  });

  it('refuses a malformed delivery id with the field named', async () => {
    const response = await merchant.browser.post('/api/webhook/replay-delivery', { delivery_id: 'msg_nope' });
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toEqual([
      expect.objectContaining({ field: 'delivery_id', message: 'Please enter valid Delivery' }),
    ]);
  });
});
