import { createLogger } from '@peeks/runtime';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../app.ts';
import { accessClassOf, routeKey, type AccessClass } from '../openapi/route-operation.ts';
import { TEST_LOG_KEY } from './ledger-log.ts';
import { loadRouteSamples, type RouteCase, type RouteSamples } from './route-samples.ts';

/**
 * The routes the app serves, each with the access class its own options
 * give, read through fastify's onRoute as the app is built (without a
 * database: nothing is called), before any test is collected.
 */
async function servedRoutes(): Promise<Map<string, AccessClass>> {
  // Read once the app is built: a plugin's own onRoute hook (the reference's) may still set its routes' config.
  const added: RouteOptions[] = [];
  const unused = 'postgres://nobody@127.0.0.1:1/none';
  const app = await buildApp({
    db: new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: unused }) }) }),
    databaseUrl: unused,
    log: createLogger({ LOG_LEVEL: 'silent' }),
    jobs: { causedBy: () => [], enqueue: () => Promise.resolve() },
    // As createTestApp builds it: with the ledger log's routes.
    ledgerLogKey: TEST_LOG_KEY.vkey,
    onRoute: (route) => {
      added.push(route);
    },
  });
  await app.close();
  return new Map(
    added.flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => [routeKey(method, route.url), accessClassOf(route.config)] as const),
    ),
  );
}

/** Every route's sample request, from its feature's testing.ts. */
export const routeSamples: RouteSamples = await loadRouteSamples();

const served = await servedRoutes();

/**
 * Every served route that has a sample, as the route-wide tests call it.
 * The authorization matrix fails for a served route without a sample, or
 * a sample for a route the app does not serve.
 */
export const routeCases: Record<string, RouteCase> = Object.fromEntries(
  Object.entries(routeSamples).flatMap(([key, each]) => {
    const access = served.get(key);
    if (access === undefined) return [];
    const owner =
      each.owner ?? (access === 'merchant-only' ? 'business' : access === 'operator' ? 'operator' : 'personal');
    return [[key, { ...each, access, owner }]];
  }),
);
