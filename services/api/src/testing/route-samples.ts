import { globSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { AccessClass } from '../openapi/route-operation.ts';
import type { TestApp } from './app.ts';
import { personalSignUp } from './accounts.ts';
import type { SignedIn } from './merchants.ts';
import type { Caller } from './operations.ts';
import type { Upload } from './uploads.ts';

/**
 * Sample requests for the route-wide tests (authorization matrix, fuzz,
 * malformed input): each feature gives one for each of its routes in its
 * own `testing.ts`, as `routeSamples`, keyed `METHOD url` as fastify knows
 * the route. Who may call the route is not said here but in the route's
 * own options (`config.access`, `config.operation.role`): see
 * route-cases.ts, which joins the two.
 */
export interface RouteRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart/form-data body, for the upload routes. */
  form?: { fields: Record<string, string>; files: Record<string, Upload> };
  /** The URL to call, for a route with path parameters (`/api/user/avatar/:userId/:sha256`). */
  path?: string;
  /** Headers the caller adds: the processor credential. */
  headers?: Record<string, string>;
}

/** A request the route serves, and what the route-wide tests need to know of it beyond its options. */
export interface RouteSample {
  /** A request the owner may make; for a record route it names a record made for it now. */
  request: (owner: SignedIn, subject: TestApp) => Promise<RouteRequest>;
  /** Whose request it is, when not the access class's usual caller (a business user's for routes that name a merchant). */
  owner?: Caller;
  /** The request names the owner's own record or id: anyone else is answered 404. */
  ownRecord: boolean;
  /** Body fields (dotted paths) that may be left out: optional, or with a default. */
  optional: readonly string[];
  /** The body may be left out (or null) altogether. */
  bodyOptional: boolean;
  /** An external party's call served here (the sandbox card processor): no session, no CSRF token. */
  csrfExempt: boolean;
}

export type RouteSamples = Record<string, RouteSample>;

/** A route as the route-wide tests call it: its sample, with who may call it from its options. */
export interface RouteCase extends RouteSample {
  access: AccessClass;
  /** Whose request it is: a business user's for merchant routes and for routes that name a merchant, a finance operator's for the operations console. */
  owner: Caller;
}

type Options = Partial<Pick<RouteSample, 'owner' | 'ownRecord' | 'optional' | 'bodyOptional' | 'csrfExempt'>>;

export function sample(
  request: (owner: SignedIn, subject: TestApp) => RouteRequest | Promise<RouteRequest>,
  options: Options = {},
): RouteSample {
  return {
    ownRecord: false,
    optional: [],
    bodyOptional: false,
    csrfExempt: false,
    ...options,
    request: async (owner, subject) => request(owner, subject),
  };
}

export const body = (value: unknown): RouteRequest => ({ body: value });
export const query = (value: Record<string, string | number>): RouteRequest => ({
  query: Object.fromEntries(Object.entries(value).map(([key, each]) => [key, String(each)])),
});
export const ownRecord = { ownRecord: true };
export const { password } = personalSignUp() as { password: string };
export const newPassword = 'Changed34';
export const fresh = () => Math.random().toString(36).slice(2, 10);

/** A record the owner makes through the API for a sample, read from the answer with `parse`. */
export async function made<T>(owner: SignedIn, url: string, form: unknown, parse: (answer: unknown) => T): Promise<T> {
  const response = await owner.browser.post(url, form);
  expect(response.statusCode, `${url} for a fixture`).toBe(200);
  return parse(response.json());
}

/** The plugins' own routes, outside any feature: the document and its rendered reference. */
const pluginSamples: RouteSamples = {
  'GET /api/docs': sample(() => ({})),
  'GET /api/reference/': sample(() => ({})),
  'GET /api/reference/js/scalar.js': sample(() => ({})),
};

/** Every feature's `routeSamples` (features/<feature>/testing.ts), with the plugins'; a route sampled twice throws. */
export async function loadRouteSamples(): Promise<RouteSamples> {
  const features = path.join(import.meta.dirname, '..', 'features');
  const all: RouteSamples = { ...pluginSamples };
  for (const file of globSync('**/testing.ts', { cwd: features }).sort()) {
    const { routeSamples } = (await import(pathToFileURL(path.join(features, file)).href)) as {
      routeSamples?: RouteSamples;
    };
    if (routeSamples === undefined) throw new Error(`features/${file} does not export routeSamples`);
    for (const [key, each] of Object.entries(routeSamples)) {
      if (key in all) throw new Error(`${key} has a sample twice (features/${file})`);
      all[key] = each;
    }
  }
  return all;
}
