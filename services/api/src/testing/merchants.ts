import { signedInResponse, type SessionUser } from '@peeks/contracts';
import { expect } from 'vitest';
import type { TestApp, TestBrowser } from './app.ts';
import { businessSignUp, personalSignUp } from './accounts.ts';

export interface SignedIn {
  browser: TestBrowser;
  user: SessionUser;
  /** The merchant the session acts for; 0 for a personal user. */
  merchantId: number;
}

/** A new business (or personal) account, signed in on a browser of its own. */
export async function signedUp(subject: TestApp, kind: 'business' | 'personal'): Promise<SignedIn> {
  const browser = await subject.browser();
  const response = await browser.post(
    `/api/register/${kind}`,
    kind === 'business' ? businessSignUp() : personalSignUp(),
  );
  expect(response.statusCode).toBe(200);
  const { user } = signedInResponse.parse(response.json());
  return { browser, user, merchantId: user.merchant_id ?? 0 };
}

/** Test apps for these features: registration unthrottled, webhook hosts resolved from a table, no network. */
export const testAppOptions = {
  rateLimits: { registration: { max: 10_000, timeWindow: 60_000 } },
  webhooks: {
    resolve: (hostname: string) => {
      const table: Record<string, string[]> = {
        'hooks.example.com': ['93.184.215.14'],
        'internal.example.com': ['10.1.2.3'],
        'mixed.example.com': ['93.184.215.14', '192.168.0.7'],
      };
      const addresses = table[hostname];
      return addresses ? Promise.resolve(addresses) : Promise.reject(new Error(`ENOTFOUND ${hostname}`));
    },
  },
};

/** A valid 'Merchant Details' modal form; override any field. */
export const merchantEdit = (overrides: Record<string, unknown> = {}) => ({
  website: 'https://new.example.com',
  address: { address1: '200 Bank St', address2: 'Floor 3' },
  support_url: 'https://new.example.com/help',
  support_phone: '6135559000',
  support_email: 'support@new.example.com',
  contact_name: 'Jean Roy',
  contact_email: 'jean@new.example.com',
  contact_phone: '6135559001',
  ...overrides,
});

/** A valid terminal of `who`'s merchant; override any field. */
export const terminal = (who: SignedIn, overrides: Record<string, unknown> = {}) => ({
  merchant_id: who.merchantId,
  terminal_id: 'POS-1',
  comment: 'Front counter',
  registration_code: 101,
  ...overrides,
});
