import { errorEnvelope } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app.ts';
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
    for (let n = 0; n < max; n++) expect((await attempt(n % 2 === 0 ? first : second, '10.0.0.1')).statusCode).toBe(401);

    const refused = await attempt(first, '10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(errorEnvelope.parse(refused.json()).errors).toEqual([{ code: 42900, message: 'Too many attempts, please try again later' }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(second, '10.0.0.1')).statusCode).toBe(429);

    expect((await attempt(first, '10.0.0.2')).statusCode).toBe(401);

    now = new Date(now.getTime() + timeWindow);
    expect((await attempt(second, '10.0.0.1')).statusCode).toBe(401);
  });
});
