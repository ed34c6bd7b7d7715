import { errorEnvelope, type ErrorCode } from '@peeks/contracts';
import { schemaColumns } from '@peeks/db';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import type { TestApp, TestBrowser } from './app.ts';
import type { RouteRequest } from './route-samples.ts';
import { multipartBody } from './uploads.ts';

/** 'POST /api/login' as its method and URL. */
export function routeOf(key: string): { method: HTTPMethods; url: string } {
  const [method, url] = key.split(' ');
  if (method === undefined || url === undefined) throw new Error(`not a route key: ${key}`);
  return { method, url };
}

export const changesState = (method: string) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);

/**
 * Sends `request` as `browser`, with its session cookie and, unless `csrf`
 * is false, its CSRF token. The browser keeps any new cookie or token.
 */
export async function send(
  browser: TestBrowser,
  method: HTTPMethods,
  url: string,
  request: RouteRequest,
  { csrf = true } = {},
): Promise<LightMyRequestResponse> {
  const path = request.path ?? url;
  const target = request.query === undefined ? path : `${path}?${new URLSearchParams(request.query).toString()}`;
  if (csrf && request.form === undefined && (method === 'GET' || changesState(method)))
    return browser.request(method as 'GET' | 'POST', target, request.body, request.headers);
  const payload = request.form
    ? await multipartBody(request.form.fields, request.form.files)
    : request.body === undefined
      ? null
      : { payload: JSON.stringify(request.body), contentType: 'application/json' };
  return browser.app.inject({
    method,
    url: target,
    remoteAddress: browser.remoteAddress,
    headers: {
      ...(browser.cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${browser.cookie}` }),
      ...(csrf && browser.csrfToken !== undefined ? { 'x-csrf-token': browser.csrfToken } : {}),
      ...(payload ? { 'content-type': payload.contentType } : {}),
      ...request.headers,
    },
    ...(payload ? { payload: payload.payload } : {}),
  });
}

/** A refusal: this status, the error envelope, and when given this code among its errors. */
export function expectRefusal(
  response: LightMyRequestResponse,
  statusCode: number,
  code?: ErrorCode,
  context = '',
): void {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBe(statusCode);
  const envelope = errorEnvelope.safeParse(response.json());
  expect(envelope.success, `${context}: envelope`).toBe(true);
  if (code !== undefined)
    expect(
      envelope.data?.errors.map((each) => each.code),
      context,
    ).toContain(code);
}

/**
 * The tables as they are: every row of every table, hashed, and the number
 * of sessions. Left out: rate-limit counters (a refused request still
 * counts against its limit) and the sessions' own rows (seeing one moves
 * its idle deadline).
 */
export async function databaseState(subject: TestApp): Promise<string> {
  // Counters and heartbeats that change beside any request: rate windows, sessions (counted instead), and a
  // ledger verification an earlier row started, which keeps writing its progress in the background.
  const background = new Set(['rate_limit_hits', 'sessions', 'ledger_verifications']);
  const tables = Object.keys(schemaColumns).filter((table) => !background.has(table));
  const digests = tables.map(
    (table) =>
      sql`(SELECT ${sql.lit(table)} || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${sql.table(table)} AS t)`,
  );
  const { rows } = await sql<{
    state: string;
  }>`SELECT concat_ws(',', (SELECT count(*) FROM sessions), ${sql.join(digests)}) AS state`.execute(
    subject.database.db,
  );
  return rows[0]?.state ?? '';
}
