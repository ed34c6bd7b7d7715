import { SESSION_COOKIE } from './sessions.ts';
import { errorEnvelope as errorEnvelopeSchema } from '@peeks/contracts';
import { StreamVersionConflict } from '@peeks/db';
import { LedgerRuleViolation, type RefusalCode } from '@peeks/ledger';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { ApiError } from './error-envelope.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    // The tests' own routes, not part of the API: hidden from the document, so they need no description.
    extend: (app) => {
      app.post(
        '/api/test/echo',
        {
          config: { access: 'public' },
          schema: {
            hide: true,
            body: z.object({
              amount: z.number().positive('Amount must be positive').int('Amount must be whole'),
              note: z.string({ error: 'Please enter Note' }).max(5),
            }),
          },
        },
        (request) => ({
          response: 'success',
          ...request.body,
        }),
      );
      app.get('/api/test/boom', { config: { access: 'public' }, schema: { hide: true } }, () => {
        throw new Error('secret internals at /srv/app.ts:42');
      });
      app.get('/api/test/conflict', { config: { access: 'public' }, schema: { hide: true } }, () => {
        throw new StreamVersionConflict('wallet-1', 3, 4);
      });
      app.get('/api/test/refused', { config: { access: 'public' }, schema: { hide: true } }, () => {
        throw new ApiError(422, 'Insufficient funds', [{ code: 4040, field: 'amount', message: 'Invalid amount' }]);
      });
      app.get<{ Params: { code: RefusalCode } }>(
        '/api/test/ledger-refused/:code',
        { config: { access: 'public' }, schema: { hide: true } },
        (request) => {
          throw new LedgerRuleViolation(request.params.code, 'wallet-secret-detail');
        },
      );
      app.get('/api/test/card-funds-maturing', { config: { access: 'public' }, schema: { hide: true } }, () => {
        throw new LedgerRuleViolation('card_funds_maturing', 'wallet-secret-detail', '2026-11-28T12:00:00.000Z');
      });
    },
  });
});
afterAll(() => subject.close());

/** Sent as the web app would, with a session cookie and its CSRF token. */
async function call(options: InjectOptions) {
  const browser = await subject.browser();
  const headers = {
    cookie: `${SESSION_COOKIE}=${browser.cookie ?? ''}`,
    'x-csrf-token': browser.csrfToken ?? '',
    ...options.headers,
  };
  const response = await subject.app.inject({ ...options, headers });
  return { statusCode: response.statusCode, body: errorEnvelopeSchema.parse(response.json()) };
}

describe('error envelope', () => {
  it('answers an unknown API route with 404', async () => {
    expect(await call({ method: 'GET', url: '/api/no-such-thing?x=1' })).toEqual({
      statusCode: 404,
      body: {
        response: 'error',
        request_id: expect.any(String) as string,
        message: 'Not found',
        errors: [{ code: 40400, message: 'No route for GET /api/no-such-thing' }],
      },
    });
  });

  it('answers a path parameter over the router limit, or a path that is not valid percent-encoding, with 400', async () => {
    // Found by the OpenAPI fuzz test: the router answered these in fastify's own shape.
    for (const url of [`/api/user/avatar/${'x'.repeat(200)}/abc`, '/api/user/avatar/%E0%A4%A/abc']) {
      const { statusCode, body } = await call({ method: 'GET', url });
      expect(statusCode, url).toBe(400);
      expect(errorEnvelopeSchema.parse(body).errors, url).toEqual([
        expect.objectContaining({ code: 4003, field: 'path' }),
      ]);
    }
  });

  it('answers malformed JSON with 400', async () => {
    const { statusCode, body } = await call({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"amount": 1,',
    });
    expect(statusCode).toBe(400);
    expect(body.errors[0]?.code).toBe(4003);
  });

  it('answers a failed validation with 400, one problem per field, a missing field as 4215', async () => {
    const { statusCode, body } = await call({ method: 'POST', url: '/api/test/echo', payload: { amount: -5.5 } });
    expect(statusCode).toBe(400);
    expect(body).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: 'Amount must be positive',
      errors: [
        { code: 4002, field: 'amount', message: 'Amount must be positive' },
        { code: 4215, field: 'note', message: 'Please enter Note' },
      ],
    });
  });

  it('refuses a state-changing request without its CSRF token with 403, before reading the body', async () => {
    const response = await subject.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { amount: 1, note: 'a' },
    });
    expect(response.statusCode).toBe(403);
    expect(errorEnvelopeSchema.parse(response.json()).errors.map((error) => error.code)).toEqual([40300]);
  });

  it('answers a body over the limit with 413', async () => {
    const { statusCode, body } = await call({
      method: 'POST',
      url: '/api/test/echo',
      payload: { amount: 1, note: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(statusCode).toBe(413);
    expect(body.errors[0]?.code).toBe(41300);
  });

  it('answers an unsupported content type with 415', async () => {
    const { statusCode } = await call({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<amount>1</amount>',
    });
    expect(statusCode).toBe(415);
  });

  it('hides an unexpected failure behind a plain 500 and logs it', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: 'Something went wrong',
      errors: [{ code: 50000, message: 'Something went wrong' }],
    });
    expect(response.body).not.toContain('secret internals');
    expect(
      subject.logLines.some(
        (line) => line.msg === 'request failed' && JSON.stringify(line).includes('secret internals'),
      ),
    ).toBe(true);
  });

  it('maps a stream conflict to 409 and a deliberate refusal to its own status', async () => {
    expect((await call({ method: 'GET', url: '/api/test/conflict' })).statusCode).toBe(409);
    expect(await call({ method: 'GET', url: '/api/test/refused' })).toEqual({
      statusCode: 422,
      body: {
        response: 'error',
        request_id: expect.any(String) as string,
        message: 'Insufficient funds',
        errors: [{ code: 4040, field: 'amount', message: 'Invalid amount' }],
      },
    });
  });

  // The ledger names its refusals; the client still gets the catalogue's code and text, as it always has.
  it.each<[RefusalCode, number, number, string]>([
    ['invalid_amount', 422, 4040, 'Invalid amount'],
    ['amount_not_positive', 422, 4041, 'Amount must be positive'],
    ['amount_above_limit', 422, 4042, 'Amount is above the limit'],
    ['amount_below_minimum', 422, 4043, 'Amount is below the minimum'],
    ['required_field', 422, 4215, 'Required field'],
    ['wallet_not_found', 404, 40401, 'Wallet does not exist'],
    ['transaction_not_found', 404, 40402, 'No such a transaction'],
    ['insufficient_funds', 422, 42201, 'Insufficient funds'],
    ['funds_on_hold', 422, 42202, 'Insufficient withdrawable funds: part of the balance is on hold'],
    ['card_funds_maturing', 422, 42208, 'Coins bought by card can be withdrawn as cash only once they mature'],
    ['send_to_self', 422, 42203, 'You cannot send funds to yourself'],
    ['wallet_closed', 422, 42204, 'Wallet is closed'],
    ['currency_mismatch', 422, 42205, 'Invalid currency'],
    ['transaction_state_invalid', 422, 42206, 'The transaction cannot do that in its current state'],
    ['wallet_not_empty', 422, 42207, 'A wallet can be closed only when its balance is zero'],
    ['payment_method_wrong_use', 422, 42252, 'This payment method cannot be used for this payment'],
    ['return_exceeds_sale', 422, 42260, 'The amount is more than what is left of the sale to return'],
    ['sale_not_returnable', 422, 42261, 'Only a completed sale can be returned'],
  ])('answers the ledger refusing %s with %i and catalogue code %i', async (refusal, statusCode, code, message) => {
    const response = await subject.app.inject({ method: 'GET', url: `/api/test/ledger-refused/${refusal}` });
    expect(response.statusCode).toBe(statusCode);
    expect(response.json()).toEqual({
      response: 'error',
      message,
      errors: [{ code, message }],
      request_id: expect.any(String) as string,
    });
    expect(response.body).not.toContain('wallet-secret-detail');
  });

  it('says from when coins bought by card can be withdrawn as cash, when the ledger knows', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/test/card-funds-maturing' });
    const message = 'Coins bought by card can be withdrawn as cash from 2026-11-28T12:00:00.000Z';
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ message, errors: [{ code: 42208, message }] });
  });

  it('carries the request id in every error body, the same as the X-Request-Id header', async () => {
    const answers = await Promise.all([
      subject.app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      subject.app.inject({ method: 'GET', url: '/api/test/boom' }),
      subject.app.inject({ method: 'POST', url: '/api/test/echo', payload: { amount: 1, note: 'a' } }),
      subject.app.inject({ method: 'GET', url: '/api/test/refused' }),
      subject.app.inject({ method: 'GET', url: '/api/session/none', headers: { 'x-request-id': 'shop-42.req_9' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 500, 403, 422, 404]);
    for (const answer of answers) {
      const requestId = answer.headers['x-request-id'];
      expect(typeof requestId).toBe('string');
      expect(errorEnvelopeSchema.parse(answer.json()).request_id).toBe(requestId);
    }
    expect(errorEnvelopeSchema.parse(answers[4].json()).request_id).toBe('shop-42.req_9');
  });
});
