import { errorEnvelope } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';

let subject: TestApp;
let merchant: SignedIn;
let personal: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  merchant = await signedUp(subject, 'business');
  personal = await signedUp(subject, 'personal');
});
afterAll(() => subject.close());

type Route = { method: 'GET' | 'POST'; url: string; body?: Record<string, unknown> };

/** Every merchant-only route, with a body its schema accepts. */
const merchantOnly: Route[] = [
  {
    method: 'POST',
    url: '/api/merchant/update-merchant',
    body: {
      website: 'https://a.example.com',
      address: { address1: '1 Main St', address2: 'Unit 2' },
      support_url: 'https://a.example.com/help',
      support_phone: '6135550000',
      support_email: 'help@a.example.com',
      contact_name: 'Ann Lee',
      contact_email: 'ann@a.example.com',
      contact_phone: '6135550001',
    },
  },
  { method: 'GET', url: '/api/merchant-terminal/list' },
  {
    method: 'POST',
    url: '/api/user/create-merchant-terminal',
    body: { merchant_id: 1, terminal_id: 'T-1', comment: 'Front desk', registration_code: 101 },
  },
  {
    method: 'POST',
    url: '/api/user/update-merchant-terminal',
    body: {
      merchant_id: 1,
      merchant_terminal_id: 1,
      terminal_id: 'T-1',
      comment: 'Front desk',
      registration_code: 101,
    },
  },
  { method: 'POST', url: '/api/merchant-terminal/delete', body: { merchant_terminal_id: 1 } },
];

/** Routes for any signed-in user: personal accounts have webhooks too. */
const signedInOnly: Route[] = [
  { method: 'POST', url: '/api/webhook/list-webhook', body: {} },
  { method: 'GET', url: '/api/webhook/lookup-webhook?id=1' },
  {
    method: 'POST',
    url: '/api/webhook/create-webhook',
    body: { state: 'enabled', url: 'https://hooks.example.com/in', events: ['purchase'] },
  },
  {
    method: 'POST',
    url: '/api/webhook/update-webhook',
    body: { webhook_id: 1, state: 'enabled', url: 'https://hooks.example.com/in', events: ['purchase'] },
  },
  { method: 'POST', url: '/api/webhook/delete-webhook', body: { webhook_id: 1 } },
  { method: 'POST', url: '/api/agreement/agreement-list', body: {} },
  { method: 'GET', url: '/api/agreement/agreement-lookup?id=1' },
  { method: 'POST', url: '/api/agreement/update-agreement', body: { agreement_id: 1, agreed_to: true } },
];

const label = (route: Route) => `${route.method} ${route.url}`;

describe('signed out', () => {
  it.each([...merchantOnly, ...signedInOnly].map((route) => [label(route), route] as const))(
    '%s is 401',
    async (_label, route) => {
      const anonymous = await subject.browser();
      const response = await anonymous.request(route.method, route.url, route.body);
      expect(response.statusCode).toBe(401);
      expect(errorEnvelope.parse(response.json()).errors[0]?.code).toBe(40100);
    },
  );
});

describe('CSRF', () => {
  it.each(
    [...merchantOnly, ...signedInOnly]
      .filter((route) => route.method === 'POST')
      .map((route) => [label(route), route] as const),
  )('%s without the token is 403', async (_label, route) => {
    const response = await merchant.browser.request(route.method, route.url, route.body, { 'x-csrf-token': '' });
    expect(response.statusCode).toBe(403);
    expect(errorEnvelope.parse(response.json()).errors[0]?.code).toBe(40300);
  });
});

describe('personal users', () => {
  it.each(merchantOnly.map((route) => [label(route), route] as const))(
    '%s is 403 Not authorized',
    async (_label, route) => {
      const response = await personal.browser.request(route.method, route.url, route.body);
      expect(response.statusCode).toBe(403);
      expect(errorEnvelope.parse(response.json()).errors).toEqual([
        { code: 1009, message: 'Not authorized to perform this action' },
      ]);
    },
  );
});

describe('categories', () => {
  it('are public, as business sign-up needs them before anyone signs in', async () => {
    const anonymous = await subject.browser();
    const categories = await anonymous.get('/api/category');
    expect(categories.statusCode).toBe(200);
    expect(categories.json<{ categories: unknown[] }>().categories).toContainEqual({
      category_id: 3,
      name: 'Food and Beverage',
    });
    const subs = await anonymous.get('/api/category/subcategory?categoryId=3');
    expect(subs.json<{ subCategories: unknown[] }>().subCategories).toContainEqual({
      sub_category_id: 12,
      category_id: 3,
      name: 'Coffee Shop',
    });
  });

  it('an unknown category is 404', async () => {
    const response = await merchant.browser.get('/api/category/subcategory?categoryId=999');
    expect(response.statusCode).toBe(404);
    expect(errorEnvelope.parse(response.json()).errors[0]?.code).toBe(40415);
  });
});
