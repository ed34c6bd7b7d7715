import { createCheckoutResponse } from '@peeks/contracts';
import { expect } from 'vitest';
import type { SignedIn } from './merchants.ts';

/** A valid Create checkout session body: two lines, 12.50 coins in all; override any field. */
export const checkoutForm = (overrides: Record<string, unknown> = {}) => ({
  cart: [
    { sku: 'MUG-01', name: 'Maple mug', price: 900 },
    { sku: 'BEAN-250', name: 'Coffee beans 250 g', price: 350 },
  ],
  total: 1250,
  currency: 'CON',
  expires_in: 3600,
  success_url: 'https://shop.example.com/thanks',
  ...overrides,
});

/** A new checkout session of `merchant`'s: its id and token. */
export async function newCheckout(
  merchant: SignedIn,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; token: string }> {
  const response = await merchant.browser.post('/api/checkout/create-session', checkoutForm(overrides));
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const { id, token } = createCheckoutResponse.parse(response.json());
  return { id, token };
}
