import { errorEnvelope } from '@peeks/contracts';
import { verifyLedger } from '@peeks/ledger-store';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../plugins/openapi.ts';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import { createTestApp, processorHeaders, type TestApp } from '../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { signedUpOperator } from '../testing/operations.ts';
import { routeOf } from '../testing/requests.ts';
import { routeCases } from '../testing/route-cases.ts';
import type { RouteCase, RouteRequest } from '../testing/route-samples.ts';

/**
 * Malformed requests generated from the OpenAPI document to every operation
 * in it (issue 21, item 9): wrong types, missing and unknown fields, huge
 * strings, control characters, lone surrogates, negative and huge numbers,
 * bodies that are not objects, not JSON or nested thousands deep, URLs past
 * Node's limit (issue 33), wrong content types and bad Idempotency-Keys,
 * each sent with a signed-in session and its CSRF token (the processor's
 * credential for the processor's routes). No answer may be a 5xx, every
 * refusal is the error envelope, and the ledger still proves itself after
 * all of it. Each request starts from a valid one (the route's sample), so
 * one broken part at a time gets past the others and reaches the handler.
 */
let subject: TestApp;
let document: OpenApiDocument;
let callers: Record<RouteCase['owner'], SignedIn>;
let sent = 0;
/** Where the test app listens on loopback, for what only real HTTP reaches (Node's own parser). */
let origin: string;
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
  document = (await subject.app.inject({ method: 'GET', url: '/api/docs' })).json<OpenApiDocument>();
  origin = `http://127.0.0.1:${(subject.app.server.address() as AddressInfo).port}`;
  callers = {
    personal: await signedUp(subject, 'personal'),
    business: await signedUp(subject, 'business'),
    operator: await signedUpOperator(subject),
  };
}, 60_000);
afterAll(() => subject.close());

/** Requests per operation: with the document's 119 operations, over 10,000 in all. */
const RUNS = 90;
/**
 * Routes whose valid requests end, replace or sign out the caller's session (sign-in, sign-up,
 * sign-out, recovery, switching merchant) or change its password: each gets a caller of its own.
 */
const needsOwnCaller = (key: string, row: RouteCase) =>
  (row.access === 'public' && key.startsWith('POST ')) ||
  key === 'POST /api/merchant/switch-merchant' ||
  key === 'POST /api/user/change-password';
/** Served by the app but not operations of the API: the document and its rendered reference. */
const NOT_IN_DOCUMENT = new Set(['GET /api/docs', 'GET /api/reference/', 'GET /api/reference/js/scalar.js']);

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
}
interface Parameter {
  name?: string;
  in?: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

interface Generated {
  query?: Record<string, string | string[]>;
  path?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: { contentType: string; payload: string };
}

/** Text JSON can carry but no canonical JSON holds: a surrogate without its pair (issue 33). */
const loneSurrogate = fc.constantFrom('\ud800', 'a\udfffb', '\udbff\udbff', 'x\udc00');
const controlText = fc.constantFrom('\u0000', 'a\u0000b', 'bell\u0007', 'line\r\nbreak', '\u001b[31mred', 'del\u007f');
const hugeText = fc.oneof(
  fc.integer({ min: 1025, max: 20_000 }).map((length) => 'x'.repeat(length)),
  fc.string({ unit: 'binary', minLength: 1025, maxLength: 3000 }),
);
const oddNumbers = fc.oneof(
  fc.constantFrom(-1, 0, -(2 ** 53) - 2, 2 ** 53 + 2, 1e308, -1e308, 2 ** 63, 0.5, -0.000_1, 1e-300),
  fc.integer({ min: -2_147_483_648, max: -1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const junk = fc.anything({ maxDepth: 2, maxKeys: 4 });
const wrongType = fc.oneof(
  fc.string({ maxLength: 20 }),
  oddNumbers,
  fc.boolean(),
  fc.constant(null),
  fc.array(junk, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 3 }),
);
/** A value that is wrong for, or at the edge of, what `schema` takes. */
function badValueFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const type = schema?.type ?? schema?.anyOf?.find((each) => each.type !== undefined)?.type;
  const edges =
    type === 'integer' || type === 'number'
      ? [oddNumbers, fc.string({ maxLength: 12 }).map((text) => `${text}1`)]
      : type === 'string'
        ? [hugeText, controlText, fc.constantFrom('', ' ', '../../etc/passwd', "' OR 1=1 --", '𝕏😀', '0x1F')]
        : [];
  return fc.oneof(wrongType, controlText, hugeText, loneSurrogate, ...edges);
}
/** Query strings are text: the same values, as text, plus repeated keys (arrays). */
const badQueryValue = (schema: Schema | undefined) =>
  fc.oneof(
    badValueFor(schema).map((value) =>
      typeof value === 'string' ? value : ((JSON.stringify(value) as string | undefined) ?? ''),
    ),
    fc.array(fc.string({ maxLength: 10 }), { minLength: 2, maxLength: 3 }),
  );

/** Text that is not JSON. */
const notJson = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('{', '{"a":', '[1,2', '{"a":1}}', "{'a':1}", 'NaN', '\u0000', '{"__proto__":'),
  )
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON body nested deeper than any schema goes. */
const deep = fc.integer({ min: 20, max: 400 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
});

/** JSON text nested far past the body limit's 32 levels, up to the probe's 8,000 arrays (16 KB) (issue 33). */
const nestedText = fc
  .tuple(fc.integer({ min: 33, max: 8_000 }), fc.constantFrom('[]', '{}'))
  .map(([depth, kind]) =>
    kind === '[]' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`,
  );

/** The valid body with one of its strings, or a new field, ending in a lone surrogate. */
function withLoneSurrogate(valid: unknown): fc.Arbitrary<unknown> {
  const base = isObject(valid) ? valid : {};
  const strings = Object.keys(base).filter((name) => typeof base[name] === 'string');
  return fc
    .tuple(strings.length > 0 ? fc.constantFrom(...strings, 'note') : fc.constant('note'), loneSurrogate)
    .map(([name, lone]) => ({ ...base, [name]: `${typeof base[name] === 'string' ? base[name] : ''}${lone}` }));
}

function bodyArbitrary(valid: unknown, schema: Schema | undefined): fc.Arbitrary<Generated> {
  const base = isObject(valid) ? valid : {};
  const properties = { ...schema?.properties };
  const names = [...new Set([...Object.keys(properties), ...Object.keys(base)])];
  const required = schema?.required ?? [];
  const mutations: fc.Arbitrary<Generated>[] = [
    // The whole body of another kind, or nested past any limit.
    fc.oneof(wrongType, deep, hugeText).map((body) => ({ body })),
    // Not JSON at all, or JSON under another content type.
    notJson.map((payload) => ({ raw: { contentType: 'application/json', payload } })),
    nestedText.map((payload) => ({ raw: { contentType: 'application/json', payload } })),
    withLoneSurrogate(valid).map((body) => ({ body })),
    fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/octet-stream',
        ),
        fc.oneof(fc.constant(JSON.stringify(base)), fc.string({ maxLength: 100 })),
      )
      .map(([contentType, payload]) => ({ raw: { contentType, payload } })),
    // Unknown fields beside the valid ones.
    fc.dictionary(fc.string({ maxLength: 12 }), junk, { minKeys: 1, maxKeys: 4 }).map((extra) => ({
      body: { ...extra, ...base },
    })),
  ];
  if (names.length > 0) {
    // One to three fields replaced by something wrong for their type.
    mutations.push(
      fc.subarray(names, { minLength: 1, maxLength: Math.min(3, names.length) }).chain((chosen) =>
        fc.tuple(...chosen.map((name) => badValueFor(properties[name]))).map((values) => ({
          body: { ...base, ...Object.fromEntries(chosen.map((name, i) => [name, values[i]])) },
        })),
      ),
    );
    // A field's own fields broken, one level down.
    const sections = names.filter((name) => properties[name]?.properties !== undefined || isObject(base[name]));
    if (sections.length > 0)
      mutations.push(
        fc.constantFrom(...sections).chain((name) => {
          const inner = isObject(base[name]) ? base[name] : {};
          const innerNames = [...new Set([...Object.keys(properties[name]?.properties ?? {}), ...Object.keys(inner)])];
          if (innerNames.length === 0) return wrongType.map((value) => ({ body: { ...base, [name]: value } }));
          return fc.tuple(fc.constantFrom(...innerNames), fc.constant(null)).chain(([field]) =>
            badValueFor(properties[name]?.properties?.[field]).map((value) => ({
              body: { ...base, [name]: { ...inner, [field]: value } },
            })),
          );
        }),
      );
  }
  if (required.length > 0)
    mutations.push(
      fc.subarray(required, { minLength: 1 }).map((dropped) => ({
        body: Object.fromEntries(Object.entries(base).filter(([name]) => !dropped.includes(name))),
      })),
    );
  return fc.oneof(...mutations);
}

function queryArbitrary(valid: Record<string, string>, parameters: Operation['parameters']): fc.Arbitrary<Generated> {
  const inQuery = (parameters ?? []).filter((each) => each.in === 'query' && each.name !== undefined);
  const names: string[] = [...new Set([...inQuery.map((each) => String(each.name)), ...Object.keys(valid)])];
  const schemaOf = (name: string): Schema | undefined => inQuery.find((each) => each.name === name)?.schema;
  const mutations: fc.Arbitrary<Generated>[] = [
    fc
      .dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.oneof(fc.string({ maxLength: 30 }), controlText), {
        minKeys: 1,
        maxKeys: 4,
      })
      .map((extra) => ({ query: { ...extra, ...valid } })),
  ];
  if (names.length > 0)
    mutations.push(
      fc.subarray(names, { minLength: 1, maxLength: Math.min(3, names.length) }).chain((chosen) =>
        fc.tuple(...chosen.map((name) => badQueryValue(schemaOf(name)))).map((values) => ({
          query: { ...valid, ...Object.fromEntries(chosen.map((name, i) => [name, values[i] ?? ''])) },
        })),
      ),
    );
  const required = inQuery.filter((each) => each.required).map((each) => each.name ?? '');
  if (required.length > 0)
    mutations.push(
      fc.subarray(required, { minLength: 1 }).map((dropped) => ({
        query: Object.fromEntries(Object.entries(valid).filter(([name]) => !dropped.includes(name))),
      })),
    );
  return fc.oneof(...mutations);
}

function pathArbitrary(url: string): fc.Arbitrary<Generated> | null {
  const names = [...url.matchAll(/:(\w+)/g)].map(([, name]) => name ?? '');
  if (names.length === 0) return null;
  return fc
    .tuple(
      ...names.map(() =>
        fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), hugeText, controlText, oddNumbers.map(String)),
      ),
    )
    .map((values) => ({ path: Object.fromEntries(names.map((name, i) => [name, values[i] ?? ''])) }));
}

const badIdempotencyKey = fc
  .oneof(
    fc.constant(''),
    fc.constantFrom('ключ', 'key with spaces', 'tab\tkey', 'é'),
    fc.integer({ min: 256, max: 2000 }).map((length) => 'k'.repeat(length)),
  )
  .map((key) => ({ headers: { 'idempotency-key': key } }));

/** The URL with the valid request's path, or the generated path parameters, and a query. */
function urlOf(url: string, valid: RouteRequest, generated: Generated): string {
  const path = generated.path
    ? url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(generated.path?.[name] ?? ''))
    : (valid.path ?? url);
  const query = generated.query ?? valid.query;
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const each of [value].flat()) search.append(name, each);
  return `${path}?${search.toString()}`;
}

async function sendGenerated(
  caller: SignedIn,
  row: RouteCase,
  key: string,
  valid: RouteRequest,
  generated: Generated,
): Promise<LightMyRequestResponse> {
  const { method, url } = routeOf(key);
  const headers: Record<string, string> = {
    ...(caller.browser.cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${caller.browser.cookie}` }),
    ...(caller.browser.csrfToken === undefined ? {} : { 'x-csrf-token': caller.browser.csrfToken }),
    ...(row.access === 'processor' ? processorHeaders : {}),
    ...valid.headers,
    ...generated.headers,
  };
  const hasBody = method !== 'GET' && (generated.raw !== undefined || generated.body !== undefined);
  if (generated.raw) headers['content-type'] = generated.raw.contentType;
  else if (hasBody) headers['content-type'] = 'application/json';
  sent += 1;
  return subject.app.inject({
    method,
    url: urlOf(url, valid, generated),
    headers,
    ...(hasBody ? { payload: generated.raw?.payload ?? JSON.stringify(generated.body) } : {}),
  });
}

function expectAnswered(response: LightMyRequestResponse, context: string): void {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (response.statusCode >= 400) {
    const envelope = errorEnvelope.safeParse(JSON.parse(response.body));
    expect(envelope.success, `${context}: not the envelope: ${response.body.slice(0, 300)}`).toBe(true);
  }
}

const openApiPathOf = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const documented = Object.entries(routeCases).filter(([key]) => !NOT_IN_DOCUMENT.has(key));

describe('malformed requests generated from the OpenAPI document', () => {
  it('covers every operation the document has, and the samples every one', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      documented.map(([key]) => `${routeOf(key).method} ${openApiPathOf(routeOf(key).url)}`).sort(),
    );
  });

  it.each(documented)(
    '%s answers no 5xx, and refuses in the envelope',
    async (key, row) => {
      const { method, url } = routeOf(key);
      const operation = document.paths[openApiPathOf(url)]?.[method.toLowerCase()] as unknown as Operation | undefined;
      if (!operation) throw new Error(`${key} is not in the document`);
      const caller = needsOwnCaller(key, row)
        ? await signedUp(subject, row.owner === 'business' ? 'business' : 'personal')
        : callers[row.owner];
      const valid = await row.request(caller, subject);
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const kinds: fc.Arbitrary<Generated>[] = [];
      if (method !== 'GET') kinds.push(bodyArbitrary(valid.body, schema));
      kinds.push(queryArbitrary(valid.query ?? {}, operation.parameters));
      const path = pathArbitrary(url);
      if (path) kinds.push(path);
      const keyed = operation.parameters?.some((each) => each.$ref === '#/components/parameters/IdempotencyKey');
      if (keyed) {
        kinds.push(
          badIdempotencyKey.map((generated) => ({
            ...generated,
            ...(valid.body === undefined ? {} : { body: valid.body }),
          })),
        );
        // A lone surrogate under a fresh key: once, the request fingerprint threw on it (issue 33).
        if (method !== 'GET')
          kinds.push(
            fc
              .tuple(withLoneSurrogate(valid.body), fc.uuid())
              .map(([body, uuid]) => ({ body, headers: { 'idempotency-key': `lone-${uuid}` } })),
          );
      }
      if (method !== 'GET') {
        // One body over the 1 MiB limit.
        const response = await sendGenerated(caller, row, key, valid, {
          raw: { contentType: 'application/json', payload: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }) },
        });
        expectAnswered(response, `${key} with a body over 1 MiB`);
        expect(response.statusCode, key).toBe(413);
        // The probe's 8,000 nested arrays: refused at the depth check, before anything walks the body.
        const nested = await sendGenerated(caller, row, key, valid, {
          raw: { contentType: 'application/json', payload: `${'['.repeat(8_000)}${']'.repeat(8_000)}` },
        });
        expectAnswered(nested, `${key} nested 8,000 deep`);
        expect(nested.statusCode, key).toBe(400);
        expect(nested.json<{ message: string }>().message, key).toMatch(/nested deeper than 32 levels/);
      }
      // A URL past Node's 16 KiB, over real HTTP: Node refuses it before fastify, in the envelope all the same.
      const target = urlOf(url, valid, {});
      const long = await fetch(`${origin}${target}${target.includes('?') ? '&' : '?'}pad=${'x'.repeat(20 * 1024)}`, {
        method,
      });
      expect(long.status, key).toBe(431);
      expect(errorEnvelope.safeParse(await long.json()).success, key).toBe(true);
      await fc.assert(
        fc.asyncProperty(fc.oneof(...kinds), async (generated) => {
          const response = await sendGenerated(caller, row, key, valid, generated);
          expectAnswered(response, `${key} ${JSON.stringify(generated).slice(0, 300)}`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      if (!needsOwnCaller(key, row)) {
        // The callers the other routes share are still signed in, with the same token.
        const session = await subject.app.inject({
          method: 'GET',
          url: '/api/session',
          headers: { cookie: `${SESSION_COOKIE}=${caller.browser.cookie ?? ''}` },
        });
        expect(session.json<{ user: unknown; csrfToken: string }>(), key).toMatchObject({
          user: expect.anything() as unknown,
          csrfToken: caller.browser.csrfToken,
        });
      }
    },
    120_000,
  );

  it('sent over 10,000 of them, and the ledger still proves itself from its log', async () => {
    expect(sent).toBeGreaterThanOrEqual(10_000);
    const report = await verifyLedger(subject.database.db);
    expect(report.chains.breaks).toEqual([]);
    expect(report.differences).toEqual([]);
    expect(report.invariantFailures).toEqual([]);
    expect(report.ok).toBe(true);
  }, 120_000);
});
