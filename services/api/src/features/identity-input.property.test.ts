import { errorEnvelope } from '@peeks/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../test-app.ts';
import { businessSignUp, personalSignUp } from './accounts/fixtures.ts';

/**
 * Generated malformed input to every identity route: each answer is a 4xx in
 * the error envelope, never a 500, and nothing is written.
 */
let subject: TestApp;
let browser: TestBrowser;
const generous = { max: 1_000_000, timeWindow: 60_000 };
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { login: generous, registration: generous } });
  browser = await subject.browser();
});
afterAll(() => subject.close());

async function rowCounts() {
  const { rows } = await sql<{ counts: string }>`
    SELECT concat_ws(',', (SELECT count(*) FROM users), (SELECT count(*) FROM merchants), (SELECT count(*) FROM merchant_users), (SELECT count(*) FROM sessions)) AS counts
  `.execute(subject.database.db);
  return rows[0]?.counts;
}

const MISSING = Symbol('missing');
const junk = fc.anything({ maxDepth: 2, maxKeys: 4 });
const hugeString = fc.string({ unit: 'binary', minLength: 200, maxLength: 3000 });
const notAString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(junk, { maxLength: 3 }), fc.dictionary(fc.string(), junk, { maxKeys: 3 }));
const notANumber = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.array(junk, { maxLength: 3 }), fc.dictionary(fc.string(), junk, { maxKeys: 3 }), fc.double({ max: -0.1, noNaN: true }));

/** A value `valid` can never be replaced by and still pass: wrong type, oversized, or (when required) missing. */
function corruption(valid: unknown, required: boolean): fc.Arbitrary<unknown> {
  const missing = required ? [fc.constant(MISSING)] : [];
  if (typeof valid === 'number') return fc.oneof(...missing, notANumber);
  return fc.oneof(...missing, notAString, hugeString);
}

/** Every leaf of a valid body, as a path: ['address', 'city']. */
function leaves(body: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? leaves(value as Record<string, unknown>, [...prefix, key]) : [[...prefix, key]],
  );
}

const valueAt = (body: Record<string, unknown>, path: string[]) => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], body);

function withValue(body: Record<string, unknown>, [key, ...rest]: string[], value: unknown): Record<string, unknown> {
  if (key === undefined) return body;
  if (rest.length > 0) return { ...body, [key]: withValue(body[key] as Record<string, unknown>, rest, value) };
  const kept: [string, unknown][] = Object.entries(body).filter(([name]) => name !== key);
  return Object.fromEntries(value === MISSING ? kept : [...kept, [key, value]]);
}

/** `valid` with at least one field broken, sometimes a whole section replaced, plus junk keys beside. */
function malformed(valid: Record<string, unknown>, optional: readonly string[] = []): fc.Arbitrary<unknown> {
  const paths = leaves(valid);
  const broken = fc
    .record({ targets: fc.subarray(paths, { minLength: 1 }), extra: fc.dictionary(fc.string(), junk, { maxKeys: 3 }) })
    .chain(({ targets, extra }) =>
      fc.tuple(...targets.map((path) => corruption(valueAt(valid, path), !optional.includes(path.join('.'))))).map((values) =>
        targets.reduce((body, path, index) => withValue(body, path, values[index]), { ...extra, ...valid }),
      ),
    );
  const sections = Object.keys(valid).filter((key) => typeof valid[key] === 'object');
  const brokenSection = sections.length === 0 ? [] : [fc.tuple(fc.constantFrom(...sections), notAString.filter((value) => typeof value !== 'object' || Array.isArray(value) || value === null)).map(([key, value]) => ({ ...valid, [key]: value }))];
  const notAnObject = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(junk, { maxLength: 4 }));
  return fc.oneof(broken, ...brokenSection, notAnObject);
}

/** Text that is not JSON at all, sent as application/json. */
const notJson = fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
});

const phoneRegions = ['phone_region', 'support_phone_region', 'contact_phone_region', 'owner_phone_region', 'address.address2'];
const bodies: [string, fc.Arbitrary<unknown>][] = [
  ['/api/register/personal', malformed(personalSignUp())],
  ['/api/register/business', malformed(businessSignUp(), phoneRegions)],
  ['/api/login', malformed({ username: 'someone', password: 'Secret12' })],
  ['/api/merchant/switch-merchant', malformed({ merchant_id: 1 })],
  // Logout takes nothing: any field or non-object is refused (null is "no body").
  ['/api/logout', fc.oneof(fc.dictionary(fc.string(), junk, { minKeys: 1, maxKeys: 4 }), fc.string(), fc.integer(), fc.array(junk, { maxLength: 3 }))],
];

async function expectRefused(response: { statusCode: number; json: () => unknown }, before: string | undefined) {
  expect(response.statusCode).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  expect(errorEnvelope.safeParse(response.json()).success).toBe(true);
  expect(await rowCounts()).toBe(before);
}

describe('malformed input to the identity routes', () => {
  it.each(bodies)('POST %s answers a 4xx envelope and writes nothing', async (url, body) => {
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(body, async (generated) => {
        await expectRefused(await browser.post(url, generated), before);
      }),
      { numRuns: 80 },
    );
  });

  it.each(bodies.map(([url]) => url))('POST %s answers text that is not JSON with a 4xx envelope', async (url) => {
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(notJson, async (text) => {
        const response = await subject.app.inject({
          method: 'POST',
          url,
          headers: { cookie: `peeks_session=${browser.cookie ?? ''}`, 'x-csrf-token': browser.csrfToken ?? '', 'content-type': 'application/json' },
          payload: text,
        });
        await expectRefused(response, before);
      }),
      { numRuns: 30 },
    );
  });

  it.each(['/api/user/user-lookup', '/api/user/perm', '/api/user/merchant-lookup'])('GET %s answers any id with a 4xx envelope', async (url) => {
    const before = await rowCounts();
    const id = fc.oneof(fc.string({ unit: 'binary' }), hugeString, fc.array(fc.string(), { minLength: 2, maxLength: 3 }), fc.constant(MISSING));
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        const response = await subject.app.inject({ method: 'GET', url, query: value === MISSING ? {} : { id: value }, headers: { cookie: `peeks_session=${browser.cookie ?? ''}` } });
        await expectRefused(response, before);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses control characters in text that would reach the database', async () => {
    const before = await rowCounts();
    await expectRefused(await browser.post('/api/login', { username: 'some\u0000one', password: 'Secret12' }), before);
    await expectRefused(await browser.post('/api/register/business', businessSignUp({ name: 'Maple\u0000Coffee' })), before);
  });
});
