import { errorCodes } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../testing/merchants.ts';
import { signedUpAs } from '../testing/operations.ts';
import { changesState, databaseState, expectRefusal, routeOf, send } from '../testing/requests.ts';
import { routeCases, routeSamples } from '../testing/route-cases.ts';

/**
 * Every route of the API as anonymous, without the CSRF token, as a
 * personal user on merchant routes, as personal and business users on the
 * finance operators' routes, as another user on the owner's records, and as
 * the owner. The route list is the app's own, and who may call each route
 * is what its own options say (`config.access`, `config.operation.role`),
 * so a new route without a sample request in its feature's testing.ts
 * fails here.
 */
let subject: TestApp;
let otherPersonal: SignedIn;
let otherBusiness: SignedIn;
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
  otherPersonal = await signedUp(subject, 'personal');
  otherBusiness = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

describe('the route samples', () => {
  it('cover every route the app serves, and no other', () => {
    const served = subject.routes
      .filter((route) => route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`);
    expect(
      served.filter((key) => !key.split(' ')[1]?.startsWith('/api/')),
      'routes outside /api/',
    ).toEqual([]);
    expect([...served].sort(), "a route missing a sample must get one in its feature's testing.ts").toEqual(
      Object.keys(routeSamples).sort(),
    );
    expect(Object.keys(routeCases).sort(), 'each sampled route, with its access class').toEqual(
      Object.keys(routeSamples).sort(),
    );
  });

  it('every HEAD route is the twin of a sampled GET route', () => {
    for (const route of subject.routes.filter((each) => each.method === 'HEAD'))
      expect(Object.keys(routeSamples)).toContain(`GET ${route.url}`);
  });
});

describe.each(Object.entries(routeCases))('%s', (key, row) => {
  const { method, url } = routeOf(key);

  it(`is ${row.access}: each caller gets the answer its class allows`, async () => {
    const owner = await signedUpAs(subject, row.owner);
    const request = await row.request(owner, subject);
    const anonymous = await subject.browser();
    const unchanged = await databaseState(subject);
    const nothingWritten = async (context: string) => {
      expect(await databaseState(subject), `${context} wrote`).toBe(unchanged);
    };

    if (changesState(method) && !row.csrfExempt) {
      for (const [who, browser] of [
        ['anonymous', anonymous],
        ['owner', owner.browser],
      ] as const) {
        expectRefusal(
          await send(browser, method, url, request, { csrf: false }),
          403,
          errorCodes.csrfRefused,
          `${who} without CSRF token`,
        );
      }
      await nothingWritten('without CSRF token');
    }

    if (row.access === 'merchant-only') {
      expectRefusal(
        await send(otherPersonal.browser, method, url, request),
        403,
        errorCodes.notAuthorized,
        'a personal user',
      );
      await nothingWritten('a personal user');
    }

    if (row.access === 'operator') {
      for (const [who, other] of [
        ['a personal user', otherPersonal],
        ['a business user', otherBusiness],
      ] as const) {
        expectRefusal(await send(other.browser, method, url, request), 403, errorCodes.financeOperatorOnly, who);
        await nothingWritten(who);
      }
    }

    if (row.ownRecord) {
      const other = row.owner === 'business' ? otherBusiness : otherPersonal;
      expectRefusal(
        await send(other.browser, method, url, request),
        404,
        undefined,
        "another user, on the owner's record",
      );
      await nothingWritten('another user');
    }

    if (row.access === 'processor') {
      const withoutCredential = { ...request, headers: {} };
      for (const [who, browser] of [
        ['anonymous', anonymous],
        ['a signed-in user', owner.browser],
      ] as const)
        expectRefusal(
          await send(browser, method, url, withoutCredential),
          401,
          errorCodes.processorCredentialRefused,
          `${who} without the processor credential`,
        );
      expectRefusal(
        await send(anonymous, method, url, { ...request, headers: { authorization: 'Bearer wrong-credential' } }),
        401,
        errorCodes.processorCredentialRefused,
        'a wrong processor credential',
      );
      await nothingWritten('without the processor credential');
    } else if (row.access === 'public') {
      const response = await send(anonymous, method, url, request);
      expect(response.statusCode, `anonymous: ${response.body.slice(0, 300)}`).toBeLessThan(500);
      expect([401, 403], `anonymous: ${response.body.slice(0, 300)}`).not.toContain(response.statusCode);
    } else {
      expectRefusal(await send(anonymous, method, url, request), 401, errorCodes.notSignedIn, 'anonymous');
      // The session before the body (issue 21, item 4): a bad body from a signed-out caller is still 401.
      if (changesState(method))
        expectRefusal(
          await send(anonymous, method, url, { ...request, body: { unexpected: '\u0000', amount: 'x' } }),
          401,
          errorCodes.notSignedIn,
          'anonymous with a bad body',
        );
      if (method === 'GET')
        expect((await send(anonymous, 'HEAD', url, request)).statusCode, 'anonymous HEAD').toBe(401);
      await nothingWritten('anonymous');
    }

    const response = await send(owner.browser, method, url, request);
    expect(response.statusCode, `owner: ${response.body.slice(0, 300)}`).toBeLessThan(500);
    expect([401, 403, 404], `owner: ${response.body.slice(0, 300)}`).not.toContain(response.statusCode);
  });
});
