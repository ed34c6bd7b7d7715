import { SESSION_COOKIE } from '../plugins/sessions.ts';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../testing/app.ts';
import { businessSignUp } from '../testing/accounts.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { signedUpOperator } from '../testing/operations.ts';
import { databaseState, expectRefusal, routeOf, send } from '../testing/requests.ts';
import { routeCases } from '../testing/route-cases.ts';
import type { RouteCase } from '../testing/route-samples.ts';

/**
 * Generated malformed input to every sampled route: each answer is a
 * 4xx in the error envelope, never a 500, and nothing is written. Each route
 * is called by someone it would serve (anonymous for public routes, the
 * owner of the records otherwise), so the input is what refuses.
 */
let subject: TestApp;
let anonymous: TestBrowser;
let personal: SignedIn;
let business: SignedIn;
let operator: SignedIn;
const generous = { max: 1_000_000, timeWindow: 60_000 };
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    rateLimits: {
      login: generous,
      registration: generous,
      recovery: generous,
      passwordChange: generous,
      uploads: generous,
      recipientSearch: generous,
    },
  });
  anonymous = await subject.browser();
  personal = await signedUp(subject, 'personal');
  business = await signedUp(subject, 'business');
  operator = await signedUpOperator(subject);
});
afterAll(() => subject.close());

const owners = () => ({ personal, business, operator });
const ownerOf = (row: RouteCase) => owners()[row.owner];
const senderOf = (row: RouteCase) => (row.access === 'public' ? anonymous : ownerOf(row).browser);

const MISSING = Symbol('missing');
const junk = fc.anything({ maxDepth: 2, maxKeys: 4 });
/** Longer than any field allows (the longest, a terminal's comment, takes 512): a shorter one might be valid. */
const hugeString = fc.string({ unit: 'binary', minLength: 1025, maxLength: 4000 });
const someObject = fc.dictionary(fc.string(), junk, { maxKeys: 3 });
const someArray = fc.array(junk, { maxLength: 3 });
const notAString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), someArray, someObject);
const notANumber = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  someArray,
  someObject,
  fc.double({ max: -0.1, noNaN: true }),
);
const notABoolean = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), someArray, someObject);
const notAnArray = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), someObject);

/** A value `valid` can never be replaced by and still pass: wrong type, oversized, or (when required) missing. */
function corruption(valid: unknown, required: boolean): fc.Arbitrary<unknown> {
  const missing = required ? [fc.constant(MISSING)] : [];
  if (typeof valid === 'number') return fc.oneof(...missing, notANumber);
  if (typeof valid === 'boolean') return fc.oneof(...missing, notABoolean);
  if (Array.isArray(valid)) return fc.oneof(...missing, notAnArray, hugeString);
  return fc.oneof(...missing, notAString, hugeString);
}

const isSection = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every leaf of a valid body, as a path: ['address', 'city']. An array is a leaf. */
function leaves(body: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) =>
    isSection(value) ? leaves(value, [...prefix, key]) : [[...prefix, key]],
  );
}

const valueAt = (body: Record<string, unknown>, path: string[]) =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], body);

function withValue(body: Record<string, unknown>, [key, ...rest]: string[], value: unknown): Record<string, unknown> {
  if (key === undefined) return body;
  if (rest.length > 0) return { ...body, [key]: withValue(body[key] as Record<string, unknown>, rest, value) };
  const kept: [string, unknown][] = Object.entries(body).filter(([name]) => name !== key);
  return Object.fromEntries(value === MISSING ? kept : [...kept, [key, value]]);
}

/**
 * `valid` with at least one field broken, sometimes a whole section
 * replaced, plus junk keys beside; or not an object at all. A body with no
 * fields (one that takes nothing) gets junk keys instead.
 */
function malformed(
  valid: Record<string, unknown>,
  row: Pick<RouteCase, 'optional' | 'bodyOptional'>,
): fc.Arbitrary<unknown> {
  const paths = leaves(valid);
  const extra = fc.dictionary(fc.string(), junk, { maxKeys: 3 });
  const broken =
    paths.length === 0
      ? // JSON values only: a key whose value JSON drops (undefined) would leave a valid, empty body.
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 })
      : fc
          .record({ targets: fc.subarray(paths, { minLength: 1 }), extra })
          .chain(({ targets, extra: more }) =>
            fc
              .tuple(...targets.map((path) => corruption(valueAt(valid, path), !row.optional.includes(path.join('.')))))
              .map((values) =>
                targets.reduce((body, path, index) => withValue(body, path, values[index]), { ...more, ...valid }),
              ),
          );
  const sections = Object.keys(valid).filter((key) => isSection(valid[key]));
  const brokenSection =
    sections.length === 0
      ? []
      : [
          fc
            .tuple(
              fc.constantFrom(...sections),
              notAString.filter((value) => !isSection(value)),
            )
            .map(([key, value]) => ({ ...valid, [key]: value })),
        ];
  const notAnObject = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    ...(row.bodyOptional ? [] : [fc.constant(null)]),
    fc.array(junk, { maxLength: 4 }),
  );
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

async function expectRefused(response: LightMyRequestResponse, before: string, context: string) {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  expectRefusal(response, response.statusCode, undefined, context);
  expect(await databaseState(subject), `${context} wrote`).toBe(before);
}

// The samples cover every route the app serves (the authorization matrix fails otherwise), so these are all of them.
const allPosts = Object.entries(routeCases).filter(([key]) => routeOf(key).method === 'POST');
/** The upload routes take multipart forms; every other POST takes JSON (a route that does not fails its test loudly). */
const posts = allPosts.filter(([key]) => !key.includes('upload'));
const formPosts = allPosts.filter(([key]) => key.includes('upload'));
/** The GET routes that take a record's `id`. */
const lookups = Object.entries(routeCases).filter(
  ([key]) => routeOf(key).method === 'GET' && /lookup|\/perm$/.test(key),
);

describe('malformed input to every route', () => {
  it.each(posts)('%s answers a 4xx envelope and writes nothing', async (key, row) => {
    const { url } = routeOf(key);
    const { body, headers } = await row.request(ownerOf(row), subject);
    if (!isSection(body)) throw new Error(`${key}: the sample's body is not an object`);
    const sender = senderOf(row);
    const before = await databaseState(subject);
    await fc.assert(
      fc.asyncProperty(malformed(body, row), async (generated) => {
        await expectRefused(
          await sender.request('POST', url, generated, headers),
          before,
          `${key} ${JSON.stringify(generated).slice(0, 200)}`,
        );
      }),
      { numRuns: 30 },
    );
  });

  it.each(formPosts)('%s answers a malformed form with a 4xx envelope and writes nothing', async (key, row) => {
    const { url } = routeOf(key);
    const { form } = await row.request(ownerOf(row), subject);
    if (!form) throw new Error(`${key}: the sample's request is not a form`);
    const sender = senderOf(row);
    const before = await databaseState(subject);
    const names = Object.keys(form.fields);
    // Only changes that can never pass: a required field left out, a value past the 256-character
    // field limit, an unknown field, or a file that is missing or not an image at all.
    const notAnImage = fc
      .uint8Array({ maxLength: 2000 })
      .filter((bytes) => !(bytes[0] === 0xff && bytes[1] === 0xd8) && !(bytes[0] === 0x89 && bytes[1] === 0x50));
    const brokenFields = fc.record({ drop: fc.subarray(names, { minLength: 1 }) }).map(({ drop }) => ({
      fields: Object.fromEntries(Object.entries(form.fields).filter(([name]) => !drop.includes(name))),
      files: form.files,
    }));
    const hugeFields = fc
      .tuple(fc.constantFrom(...names), fc.string({ unit: 'binary', minLength: 300, maxLength: 2000 }))
      .map(([name, value]) => ({ fields: { ...form.fields, [name]: value }, files: form.files }));
    const unknownField = fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((name) => !names.includes(name) && name !== 'file')
      .map((name) => ({ fields: { ...form.fields, [name]: 'x' }, files: form.files }));
    const badFile = fc
      .oneof(fc.constant(null), notAnImage)
      .map((bytes) => ({ fields: form.fields, files: bytes === null ? {} : { file: { name: 'file.jpg', bytes } } }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(brokenFields, hugeFields, unknownField, badFile), async (generated) => {
        const response = await send(sender, 'POST', url, { form: generated });
        await expectRefused(
          response,
          before,
          `${key} ${JSON.stringify({ fields: generated.fields, files: Object.keys(generated.files) }).slice(0, 200)}`,
        );
      }),
      { numRuns: 30 },
    );
  });

  it.each(allPosts)('%s answers text that is not JSON with a 4xx envelope', async (key, row) => {
    const { url } = routeOf(key);
    const sender = senderOf(row);
    const before = await databaseState(subject);
    await fc.assert(
      fc.asyncProperty(notJson, async (text) => {
        const response = await subject.app.inject({
          method: 'POST',
          url,
          headers: {
            cookie: `${SESSION_COOKIE}=${sender.cookie ?? ''}`,
            'x-csrf-token': sender.csrfToken ?? '',
            'content-type': 'application/json',
          },
          payload: text,
        });
        await expectRefused(response, before, `${key} ${JSON.stringify(text)}`);
      }),
      { numRuns: 15 },
    );
  });

  it.each(lookups)('%s answers any id with a 4xx envelope', async (key, row) => {
    const { url } = routeOf(key);
    const sender = senderOf(row);
    const before = await databaseState(subject);
    const id = fc.oneof(
      fc.string({ unit: 'binary' }),
      hugeString,
      fc.array(fc.string(), { minLength: 2, maxLength: 3 }),
      fc.constant(MISSING),
    );
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        const response = await subject.app.inject({
          method: 'GET',
          url,
          query: value === MISSING ? {} : { id: value },
          headers: { cookie: `${SESSION_COOKIE}=${sender.cookie ?? ''}` },
        });
        await expectRefused(response, before, `${key} ${JSON.stringify(value === MISSING ? 'missing' : value)}`);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses control characters in text that would reach the database', async () => {
    const before = await databaseState(subject);
    await expectRefused(
      await anonymous.post('/api/login', { username: 'some\u0000one', password: 'Secret12' }),
      before,
      'login',
    );
    await expectRefused(
      await anonymous.post('/api/register/business', businessSignUp({ name: 'Maple\u0000Coffee' })),
      before,
      'register',
    );
    // Issue 21, item 4: these four answered 500 (Postgres: invalid byte sequence 0x00).
    for (const url of [
      '/api/user/get-recovery-email',
      '/api/user/send-recovery-code',
      '/api/user/check-recovery-code',
      '/api/user/reset-password',
    ]) {
      const response = await anonymous.post(url, {
        username: 'some\u0000one',
        recoveryCode: '123456',
        userPassword: 'Secret12',
        confirmPassword: 'Secret12',
      });
      expect(response.statusCode, url).toBe(400);
      await expectRefused(response, before, url);
    }
    // Anywhere in a body or query, key or value, at any depth.
    const deep = await personal.browser.post('/api/user/contact-create', { nested: { ['k\u0001']: 'v' } });
    expect(deep.statusCode).toBe(400);
    const query = await personal.browser.get('/api/user/user-list?search=a%00b');
    expect(query.statusCode).toBe(400);
  });
});
