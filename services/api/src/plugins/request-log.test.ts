import { SESSION_COOKIE } from './sessions.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../testing/app.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    extend: (app) => {
      app.post(
        '/api/test/login',
        // A test's own route, not part of the API: hidden from the document, so it needs no description.
        {
          config: { access: 'public' },
          schema: { hide: true, body: z.object({ username: z.string(), password: z.string() }) },
        },
        (request) => {
          request.log.info({ body: request.body }, 'handler saw a body');
          return { response: 'success' };
        },
      );
    },
  });
});
afterAll(() => subject.close());

const linesFor = (requestId: string) => subject.logLines.filter((line) => line.requestId === requestId);

describe('request log', () => {
  it('writes exactly one request line, carrying the request id it echoes back', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/health' });
    const requestId = response.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const lines = linesFor(requestId).filter((line) => line.msg === 'request');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', method: 'GET', url: '/api/health', statusCode: 200, requestId }),
    ]);
  });

  it("keeps a caller's safe request id and replaces an unsafe one", async () => {
    const kept = await subject.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'shop-42.req_7' },
    });
    expect(kept.headers['x-request-id']).toBe('shop-42.req_7');
    const replaced = await subject.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'evil\n{"level":"fatal"}' },
    });
    expect(replaced.headers['x-request-id']).not.toContain('evil');
  });

  it('never writes passwords, cookies, session ids, CSRF tokens or secret query values', async () => {
    const browser = await subject.browser();
    const response = await browser.request(
      'POST',
      '/api/test/login?token=tok-9d8e7f&lang=en',
      { username: 'alice_1', password: 'Hunter2Secret' },
      {
        cookie: `${SESSION_COOKIE}=${browser.cookie ?? ''}; sid=session-cookie-value`,
        authorization: 'Bearer bearer-value',
      },
    );
    expect(response.statusCode).toBe(200);
    const written = JSON.stringify(linesFor(response.headers['x-request-id'] as string));
    expect(written).toContain('alice_1');
    for (const secret of [
      'Hunter2Secret',
      'session-cookie-value',
      'bearer-value',
      'tok-9d8e7f',
      browser.cookie!,
      browser.csrfToken!,
    ])
      expect(written).not.toContain(secret);
  });
});
