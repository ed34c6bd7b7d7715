import { errorCodes, errorEnvelope } from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { fund } from '../testing/money.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { jsonTextProblem, MAX_JSON_DEPTH } from './json-body.ts';

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('jsonTextProblem', () => {
  it(`takes nesting down to ${MAX_JSON_DEPTH} levels and refuses one more, arrays and objects alike`, () => {
    expect(jsonTextProblem(nestedArrays(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextProblem(nestedObjects(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextProblem(nestedArrays(MAX_JSON_DEPTH + 1))).toBe('nested too deep');
    expect(jsonTextProblem(nestedObjects(MAX_JSON_DEPTH + 1))).toBe('nested too deep');
    expect(jsonTextProblem(`[${nestedArrays(MAX_JSON_DEPTH)},${nestedArrays(MAX_JSON_DEPTH)}]`)).toBe(
      'nested too deep',
    );
    // Wide is not deep.
    expect(jsonTextProblem(`[${Array.from({ length: 10_000 }, () => '[1]').join(',')}]`)).toBeNull();
  });

  it('does not count brackets, quotes or escapes inside strings', () => {
    expect(jsonTextProblem(JSON.stringify({ text: '['.repeat(1000) }))).toBeNull();
    expect(jsonTextProblem(JSON.stringify({ text: 'a "quoted" \\ [{ back\\slash' }))).toBeNull();
    expect(jsonTextProblem(`{"a":"\\"${'['.repeat(100)}"}`)).toBeNull();
  });

  it('refuses a lone surrogate, escaped or raw, as a value or a name, and takes pairs', () => {
    for (const lone of ['"\\ud800"', '"a\\uDBFFb"', '"\\udc00"', '"\\ud800\\ud800"', '"\\ud800\\n"', '{"\\ud800":1}'])
      expect(jsonTextProblem(lone), lone).toBe('lone surrogate');
    expect(jsonTextProblem('"\ud800"')).toBe('lone surrogate');
    expect(jsonTextProblem('"\\ud83d\\ude00"')).toBeNull();
    expect(jsonTextProblem('"😀 \\u00e9 \\\\ud800"')).toBeNull();
  });

  it('agrees with JSON.parse on any JSON value: a problem exactly when it is too deep or not well-formed text', () => {
    const depthOf = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    const wellFormed = (value: unknown): boolean =>
      typeof value === 'string'
        ? value.isWellFormed()
        : typeof value === 'object' && value !== null
          ? Object.entries(value).every(([name, item]) => name.isWellFormed() && wellFormed(item))
          : true;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40 }), fc.boolean(), (value, lone) => {
        const text = lone ? JSON.stringify([value, '\ud800']) : JSON.stringify(value);
        const parsed: unknown = JSON.parse(text);
        const expected =
          depthOf(parsed) > MAX_JSON_DEPTH ? 'nested too deep' : wellFormed(parsed) ? null : 'lone surrogate';
        const problem = jsonTextProblem(text);
        // Both problems in one text: whichever the pass meets first.
        if (expected !== null && problem !== null) return;
        expect(problem).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

let subject: TestApp;
let ann: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  // Many sign-ins from one address: the login rate limit has its own test.
  subject = await createTestApp({
    ...testAppOptions,
    rateLimits: { ...testAppOptions.rateLimits, login: { max: 1_000, timeWindow: 60_000 } },
  });
  [ann, bob] = await Promise.all([signedUp(subject, 'personal'), signedUp(subject, 'personal')]);
  await fund(subject, userOwnerId(ann.user.user_id), 100_000);
});
afterAll(() => subject.close());

const expectRefused = (response: { statusCode: number; json: () => unknown }, message: RegExp) => {
  expect(response.statusCode).toBe(400);
  expect(errorEnvelope.parse(response.json())).toMatchObject({
    response: 'error',
    message: expect.stringMatching(message) as string,
    errors: [{ code: errorCodes.invalidFormat, field: 'body', message: expect.stringMatching(message) as string }],
  });
};

/** A sign-in as the web app sends it, with the session's CSRF token, and `payload` as its body. */
async function signIn(payload: string, browser?: TestBrowser) {
  const { csrfToken, cookie } = browser ?? (await subject.browser());
  return subject.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': csrfToken ?? '',
      cookie: `${SESSION_COOKIE}=${cookie ?? ''}`,
    },
    payload,
  });
}

const countTransactions = async () =>
  Number(
    (
      await subject.database.db
        .selectFrom('ledger_transactions')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

describe('JSON bodies on the request path (issue 33)', () => {
  it('refuses a sign-in nested 8,000 deep (16 KB) with 400 at the depth check, before the body is walked', async () => {
    for (const payload of [nestedArrays(8_000), nestedObjects(8_000), `{"username":${nestedArrays(8_000)}}`])
      expectRefused(await signIn(payload), /nested deeper than 32 levels/);
  });

  it('refuses 16 such bodies at once, each with 400, while /api/health answers beside them', async () => {
    const browsers = await Promise.all(Array.from({ length: 16 }, () => subject.browser()));
    const nested = browsers.map((browser) => signIn(nestedArrays(8_000), browser));
    // How long health takes meanwhile is measured by hand against `npm start`, not asserted here (no timing in tests).
    const health = await subject.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const answers = await Promise.all(nested);
    for (const answer of answers) expectRefused(answer, /nested deeper than 32 levels/);
  });

  it('refuses a lone surrogate in a keyed send with 400, moves nothing, and takes the same send with a pair', async () => {
    const send = (comment: string) =>
      ann.browser.request(
        'POST',
        '/api/account/send-fund',
        { guser_id: bob.user.guser_id, amount: 1_00, comment },
        { 'idempotency-key': 'lone-surrogate' },
      );
    const before = await countTransactions();
    expectRefused(await send('thanks \ud800'), /lone surrogate/);
    expect(await countTransactions()).toBe(before);
    expect((await send('thanks \ud83d\ude00')).statusCode).toBe(200);
    expect(await countTransactions()).toBe(before + 1);
  });

  it('refuses a lone surrogate in a sign-in, as a value or as a name', async () => {
    expectRefused(await signIn('{"username":"ann\\ud800","password":"x"}'), /lone surrogate/);
    expectRefused(await signIn('{"\\udc00":1,"username":"ann","password":"x"}'), /lone surrogate/);
  });
});
