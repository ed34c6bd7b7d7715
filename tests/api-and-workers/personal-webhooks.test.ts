import {
  errorEnvelope,
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliverySentResponse,
  webhookListResponse,
} from '@peeks/contracts';
import { createLogger, readConfig } from '@peeks/runtime';
import { startWorkers, type Workers } from '@peeks/worker';
import { startReceiver, type Receiver } from '@peeks/worker/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, hook, signedUp, testAppOptions, type SignedIn, type TestApp } from '@peeks/api/testing';

/**
 * Personal webhooks, the signing secret's rotation and the test event, with
 * the API and a worker running: a person's own deposit reaches their
 * receiver on loopback, signed; after a rotation a delivery verifies with
 * the old secret and with the new one.
 */
let subject: TestApp;
let workers: Workers;
let person: SignedIn;
let merchant: SignedIn;
const receivers: Receiver[] = [];
let oldReceiver: Receiver;
let webhookId: number;
let secret: string;

beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, webhooks: { ...testAppOptions.webhooks, allowPrivate: true } });
  workers = await startWorkers({
    databaseUrl: subject.database.url,
    db: subject.database.db,
    config: readConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }),
    log: createLogger({ LOG_LEVEL: 'silent' }),
    webhooks: { schedule: [0, 5, 300, 1800], pollingIntervalSeconds: 0.5 },
  });
  person = await signedUp(subject, 'personal');
  merchant = await signedUp(subject, 'business');
});
afterAll(async () => {
  await workers.stop();
  await Promise.all(receivers.map((each) => each.close()));
  await subject.close();
});

async function receiving(key: string): Promise<Receiver> {
  const receiver = await startReceiver(key);
  receivers.push(receiver);
  return receiver;
}
const problems = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const deliveries = async (who: SignedIn = person) =>
  webhookDeliveryListResponse.parse(
    (await who.browser.post('/api/webhook/list-deliveries', { webhook_id: webhookId })).json(),
  ).deliveries;
const settled = (predicate: (list: Awaited<ReturnType<typeof deliveries>>) => boolean) =>
  expect.poll(async () => predicate(await deliveries()), { timeout: 20_000, interval: 200 }).toBe(true);

describe('a personal webhook', () => {
  it('is created by a personal user with no merchant, for their own money in and out only', async () => {
    const refused = await person.browser.post(
      '/api/webhook/create-webhook',
      hook({ merchant_id: null, events: ['deposit-entered', 'purchase'] }),
    );
    expect(refused.statusCode).toBe(422);
    expect(problems(refused)).toEqual([
      {
        code: 42234,
        field: 'events',
        message: 'A personal webhook hears about deposits, withdrawals and returns only',
      },
    ]);

    const created = webhookCreatedResponse.parse(
      (
        await person.browser.post(
          '/api/webhook/create-webhook',
          hook({ merchant_id: null, events: ['deposit-entered', 'deposit-cleared', 'return'] }),
        )
      ).json(),
    );
    expect(created.message).toBe('Webhook created successfully.');
    expect(created.data.webhook).toMatchObject({ merchant_id: null, user_id: person.user.user_id });
    secret = created.data.secret;
    webhookId = created.data.webhook.webhook_id;
    oldReceiver = await receiving(secret);
    const moved = await person.browser.post(
      '/api/webhook/update-webhook',
      hook({ webhook_id: webhookId, url: oldReceiver.url, events: ['deposit-entered', 'deposit-cleared', 'return'] }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    // Neither a merchant nor another person sees it.
    const others = [merchant, await signedUp(subject, 'personal')];
    for (const other of others) {
      const listed = webhookListResponse.parse((await other.browser.post('/api/webhook/list-webhook', {})).json());
      expect(listed.webhook.map((each) => each.webhook_id)).not.toContain(webhookId);
      expect((await other.browser.get(`/api/webhook/lookup-webhook?id=${webhookId}`)).statusCode).toBe(404);
    }
  });

  it("hears about the person's own deposit, signed with the secret", async () => {
    const deposit = await person.browser.post('/api/account/deposit-interac', { amount: 25, currency: 'CAD' });
    expect(deposit.statusCode, deposit.body).toBe(200);
    await settled((list) => list[0]?.state === 'delivered');
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ event: 'deposit-entered', payload: { type: 'deposit-entered' } });
    expect(oldReceiver.forged).toBe(0);
    expect(oldReceiver.accepted.has(delivery?.delivery_id ?? '')).toBe(true);
  });

  it('sends a test event through the same path, marked as a test', async () => {
    const sent = await person.browser.post('/api/webhook/send-test-event', { webhook_id: webhookId });
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = webhookDeliverySentResponse.parse(sent.json());
    expect(answer.message).toBe('Test event sent.');
    expect(answer.delivery).toMatchObject({
      event: 'deposit-entered',
      state: 'pending',
      payload: { type: 'deposit-entered', data: { test: true } },
    });
    await settled((list) =>
      list.some((each) => each.delivery_id === answer.delivery.delivery_id && each.state === 'delivered'),
    );
    expect(oldReceiver.accepted.has(answer.delivery.delivery_id)).toBe(true);
    // A merchant's event is not one a personal webhook may be tested with.
    const purchase = await person.browser.post('/api/webhook/send-test-event', {
      webhook_id: webhookId,
      event: 'settlement',
    });
    expect(problems(purchase)[0]?.code).toBe(42234);
    expect((await merchant.browser.post('/api/webhook/send-test-event', { webhook_id: webhookId })).statusCode).toBe(
      404,
    );
  });

  it('rotates the secret: shown once, and deliveries verify with the old one and with the new one', async () => {
    const rotated = await person.browser.post('/api/webhook/rotate-secret', { webhook_id: webhookId });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const answer = webhookCreatedResponse.parse(rotated.json());
    expect(answer.message).toBe('Signing secret rotated successfully.');
    expect(answer.data.secret).toMatch(/^whsec_/);
    expect(answer.data.secret).not.toBe(secret);
    expect(answer.data.webhook.previous_secret_until).not.toBeNull();
    const listed = await person.browser.post('/api/webhook/list-webhook', {});
    expect(listed.body).not.toContain('whsec_');
    expect((await merchant.browser.post('/api/webhook/rotate-secret', { webhook_id: webhookId })).statusCode).toBe(404);

    // Replayed to the receiver holding the old secret: it still verifies.
    const [first] = (await deliveries()).filter((each) => each.event === 'deposit-entered' && each.transaction_id);
    const firstId = first?.delivery_id ?? '';
    const before = oldReceiver.received.length;
    expect((await person.browser.post('/api/webhook/replay-delivery', { delivery_id: firstId })).statusCode).toBe(200);
    await expect.poll(() => oldReceiver.received.length, { timeout: 20_000, interval: 200 }).toBeGreaterThan(before);
    expect(oldReceiver.forged).toBe(0);

    // Moved to a receiver holding only the new secret: the same delivery verifies there too.
    const newReceiver = await receiving(answer.data.secret);
    await person.browser.post(
      '/api/webhook/update-webhook',
      hook({ webhook_id: webhookId, url: newReceiver.url, events: ['deposit-entered', 'deposit-cleared', 'return'] }),
    );
    await settled((list) => list.every((each) => each.state !== 'pending'));
    expect((await person.browser.post('/api/webhook/replay-delivery', { delivery_id: firstId })).statusCode).toBe(200);
    await expect.poll(() => newReceiver.accepted.has(firstId), { timeout: 20_000, interval: 200 }).toBe(true);
    expect(newReceiver.forged).toBe(0);
  });
});
