import { signedInResponse, type SessionUser } from '@peeks/contracts';
import { expect } from 'vitest';
import type { TestApp, TestBrowser } from '../../test-app.ts';
import { businessSignUp, personalSignUp } from '../accounts/fixtures.ts';

export interface SignedIn {
  browser: TestBrowser;
  user: SessionUser;
  /** The merchant the session acts for; 0 for a personal user. */
  merchantId: number;
}

/** A new business (or personal) account, signed in on a browser of its own. */
export async function signedUp(subject: TestApp, kind: 'business' | 'personal'): Promise<SignedIn> {
  const browser = await subject.browser();
  const response = await browser.post(`/api/register/${kind}`, kind === 'business' ? businessSignUp() : personalSignUp());
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
