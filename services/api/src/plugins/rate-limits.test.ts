import { errorEnvelope } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { signedUp, type SignedIn } from '../testing/merchants.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { defaultRateLimits } from './rate-limits.ts';

let now = new Date('2030-01-01T09:00:00Z');
const clock = () => now;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp({ clock });
  // A second API process on the same database.
  second = await createTestApp({ clock, database: first.database });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const attempt = async (subject: TestApp, remoteAddress: string) => {
  const browser = await subject.browser(remoteAddress);
  return browser.post('/api/login', { username: 'someone_else', password: 'Wrong123' });
};

describe('login rate limit', () => {
  const { max, timeWindow } = defaultRateLimits.login;

  it('answers 429 in the envelope past the limit, counted across API processes, per client address, until the window ends', async () => {
    for (let n = 0; n < max; n++)
      expect((await attempt(n % 2 === 0 ? first : second, '10.0.0.1')).statusCode).toBe(401);

    const refused = await attempt(first, '10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(errorEnvelope.parse(refused.json()).errors).toEqual([
      { code: 42900, message: 'Too many attempts, please try again later' },
    ]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(second, '10.0.0.1')).statusCode).toBe(429);

    expect((await attempt(first, '10.0.0.2')).statusCode).toBe(401);

    now = new Date(now.getTime() + timeWindow);
    expect((await attempt(second, '10.0.0.1')).statusCode).toBe(401);
  });
});

describe('per-user limits', () => {
  it('give each signed-in user an allowance of their own, even behind one address', async () => {
    const subject = await createTestApp({
      rateLimits: {
        registration: { max: 100, timeWindow: 60_000 },
        recipientSearch: { ...defaultRateLimits.recipientSearch, max: 2 },
      },
    });
    try {
      const [alice, bob] = await Promise.all([signedUp(subject, 'personal'), signedUp(subject, 'personal')]);
      const search = (who: SignedIn) => who.browser.get('/api/user/user-list?search=user');
      expect((await search(alice)).statusCode).toBe(200);
      expect((await search(alice)).statusCode).toBe(200);
      expect((await search(alice)).statusCode).toBe(429);
      // Same address (both browsers are 127.0.0.1), another user: not refused.
      expect(alice.browser.remoteAddress).toBe(bob.browser.remoteAddress);
      expect((await search(bob)).statusCode).toBe(200);
    } finally {
      await subject.close();
    }
  });
});

describe('behind a proxy', () => {
  it('counts per client address from X-Forwarded-For when TRUST_PROXY_HOPS says one proxy is in front', async () => {
    const subject = await createTestApp({ trustProxyHops: 1, rateLimits: { login: { max: 1, timeWindow: 60_000 } } });
    try {
      const proxy = await subject.browser('10.9.9.9');
      const login = (client: string) =>
        subject.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: proxy.remoteAddress,
          headers: {
            cookie: `${SESSION_COOKIE}=${proxy.cookie ?? ''}`,
            'x-csrf-token': proxy.csrfToken ?? '',
            'x-forwarded-for': client,
          },
          payload: { username: 'someone_else', password: 'Wrong123' },
        });
      expect((await login('203.0.113.1')).statusCode).toBe(401);
      expect((await login('203.0.113.1')).statusCode).toBe(429);
      expect((await login('203.0.113.2')).statusCode).toBe(401);
    } finally {
      await subject.close();
    }
  });
});
