import { errorEnvelope, webhookCreatedResponse, webhookListResponse, webhookResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { hook } from '../../testing/webhooks.ts';

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
const list = async (who: SignedIn) =>
  webhookListResponse.parse((await who.browser.post('/api/webhook/list-webhook', {})).json()).webhook;
async function created(who: SignedIn, overrides: Record<string, unknown> = {}) {
  const response = await who.browser.post('/api/webhook/create-webhook', hook(overrides));
  expect(response.statusCode).toBe(200);
  return webhookCreatedResponse.parse(response.json());
}

describe('webhook settings', () => {
  it('creates with the success text and a whsec_ secret shown once', async () => {
    const answer = await created(merchant);
    expect(answer.message).toBe('Webhook created successfully.');
    expect(answer.data.webhook).toMatchObject({
      merchant_id: merchant.merchantId,
      user_id: merchant.user.user_id,
      state: 'enabled',
      url: 'https://hooks.example.com/peeks',
      events: ['purchase', 'deposit-cleared'],
    });
    expect(answer.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(answer.data.secret.slice(6), 'base64')).toHaveLength(32);

    const lookup = await merchant.browser.get(`/api/webhook/lookup-webhook?id=${answer.data.webhook.webhook_id}`);
    expect(webhookResponse.parse(lookup.json()).webhook).toEqual(answer.data.webhook);
    const listed = await merchant.browser.post('/api/webhook/list-webhook', {});
    for (const body of [lookup.body, listed.body]) {
      expect(body).not.toContain(answer.data.secret);
      expect(body).not.toContain('whsec_');
    }
    expect(JSON.stringify(subject.logLines)).not.toContain(answer.data.secret);
  });

  it('updates state, URL and events with the success text, keeping the secret', async () => {
    const { data } = await created(merchant);
    const response = await merchant.browser.post(
      '/api/webhook/update-webhook',
      hook({
        webhook_id: data.webhook.webhook_id,
        state: 'disabled',
        url: 'https://hooks.example.com/v2',
        events: ['settlement'],
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Webhook Updated successfully.',
      webhook: { state: 'disabled', url: 'https://hooks.example.com/v2', events: ['settlement'] },
    });
    const row = await subject.database.db
      .selectFrom('webhooks')
      .select('secret')
      .where('webhook_id', '=', data.webhook.webhook_id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toBe(data.secret);
  });

  it('deletes', async () => {
    const { data } = await created(merchant);
    expect(
      (await merchant.browser.post('/api/webhook/delete-webhook', { webhook_id: data.webhook.webhook_id })).statusCode,
    ).toBe(200);
    expect((await list(merchant)).map((each) => each.webhook_id)).not.toContain(data.webhook.webhook_id);
    expect((await merchant.browser.get(`/api/webhook/lookup-webhook?id=${data.webhook.webhook_id}`)).statusCode).toBe(
      404,
    );
  });

  it.each([
    ['state', { state: undefined }, 'Select State'],
    ['state', { state: 'paused' }, 'Select State'],
    ['url', { url: '' }, 'Please enter Url'],
    ['url', { url: undefined }, 'Please enter Url'],
    ['url', { url: 'hooks.example.com' }, 'URL is invalid'],
    ['url', { url: 'ftp://hooks.example.com/x' }, 'URL is invalid'],
    ['url', { url: `https://hooks.example.com/${'a'.repeat(250)}` }, 'URL must have at most 250 characters'],
    ['events', { events: [] }, 'Event is blank'],
    ['events', { events: undefined }, 'Event is blank'],
    ['events.0', { events: ['refund'] }, 'Event is blank'],
  ])('%s: %j reads %s', async (field, change, message) => {
    const before = await list(merchant);
    const response = await merchant.browser.post('/api/webhook/create-webhook', hook(change));
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toContainEqual(expect.objectContaining({ field, message }));
    expect(await list(merchant)).toEqual(before);
  });

  it('takes a URL of exactly 250 characters', async () => {
    const url = `https://hooks.example.com/${'a'.repeat(250 - 'https://hooks.example.com/'.length)}`;
    expect(url).toHaveLength(250);
    expect((await created(merchant, { url })).data.webhook.url).toBe(url);
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest',
    'https://internal.example.com/hook',
    'https://mixed.example.com/hook',
  ])('refuses %s, on create and on update', async (url) => {
    const before = await list(merchant);
    const response = await merchant.browser.post('/api/webhook/create-webhook', hook({ url }));
    expect(response.statusCode).toBe(422);
    expect(problems(response)).toEqual([
      { code: 42230, field: 'url', message: 'Webhook URL must not point to a private, loopback or link-local address' },
    ]);
    const { data } = await created(merchant);
    const update = await merchant.browser.post(
      '/api/webhook/update-webhook',
      hook({ webhook_id: data.webhook.webhook_id, url }),
    );
    expect(update.statusCode).toBe(422);
    expect((await list(merchant)).length).toBe(before.length + 1);
  });

  it('refuses a host that does not resolve', async () => {
    const response = await merchant.browser.post(
      '/api/webhook/create-webhook',
      hook({ url: 'https://nowhere.example.com/x' }),
    );
    expect(response.statusCode).toBe(422);
    expect(problems(response)[0]?.code).toBe(42231);
  });

  it("another merchant's webhook is 404 to look up, update and delete, and stays as it was", async () => {
    const theirs = (await created(other)).data.webhook;
    expect((await merchant.browser.get(`/api/webhook/lookup-webhook?id=${theirs.webhook_id}`)).statusCode).toBe(404);
    const update = await merchant.browser.post(
      '/api/webhook/update-webhook',
      hook({ webhook_id: theirs.webhook_id, url: 'https://hooks.example.com/stolen' }),
    );
    expect(update.statusCode).toBe(404);
    expect(problems(update)[0]?.code).toBe(40414);
    expect(
      (await merchant.browser.post('/api/webhook/delete-webhook', { webhook_id: theirs.webhook_id })).statusCode,
    ).toBe(404);
    expect(await list(other)).toContainEqual(theirs);
    expect((await list(merchant)).map((each) => each.webhook_id)).not.toContain(theirs.webhook_id);
  });

  it('naming another merchant or user is 404', async () => {
    expect(
      (await merchant.browser.post('/api/webhook/list-webhook', { merchant_id: other.merchantId })).statusCode,
    ).toBe(404);
    expect(
      (await merchant.browser.post('/api/webhook/create-webhook', hook({ user_id: other.user.user_id }))).statusCode,
    ).toBe(404);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE', () => {
  it('lets a loopback URL through when allowed', async () => {
    const local = await createTestApp({
      ...testAppOptions,
      database: subject.database,
      webhooks: { ...testAppOptions.webhooks, allowPrivate: true },
    });
    try {
      const who = await signedUp(local, 'business');
      const answer = await created(who, { url: 'http://127.0.0.1:9000/hook' });
      expect(answer.data.webhook.url).toBe('http://127.0.0.1:9000/hook');
    } finally {
      await local.close();
    }
  });
});
