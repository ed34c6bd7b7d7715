import websocket from '@fastify/websocket';
import { openJobQueue } from '@peeks/jobs';
import type { LedgerJobs } from '@peeks/ledger-store';
import { newDatabaseClient, type Database, type ReadReplica } from '@peeks/db';
import type { Logger } from '@peeks/runtime';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { access, noControlCharacters } from './access.ts';
import { apiReferenceRoutes } from './api-reference.ts';
import { csrf } from './csrf.ts';
import { DatabaseNotifications } from './database-notifications.ts';
import { errorEnvelope } from './error-envelope.ts';
import { jsonBody } from './json-body.ts';
import { ledger } from './ledger.ts';
import { openApi } from './openapi.ts';
import { rateLimits, type RateLimits } from './rate-limits.ts';
import { readReplica } from './read-replica.ts';
import { requestIdHeader } from './request-log.ts';
import { securityHeaders } from './security-headers.ts';
import { sessions } from './sessions.ts';
import { zodSchemas } from './zod-schemas.ts';

/** What the platform's plugins take from the app's options, each already defaulted. */
export interface PlatformSettings {
  db: Kysely<Database>;
  databaseUrl: string;
  log: Logger;
  clock: () => Date;
  production: boolean;
  webRoot: string | undefined;
  insecureCookies: boolean;
  notificationRetryMs: number;
  /** Where the ledger's events leave later work; when null, a sending-only queue of the app's own. */
  jobs: LedgerJobs | null;
  /** DATABASE_READ_URL's standbys, or null: every read on the primary. */
  readReplica: ReadReplica | null;
  holdHours: number;
  cardFundsHoldHours: number;
  rateLimits: RateLimits;
}

/** One step of the platform's start: what it is called, which steps it relies on, and how it registers. */
export interface PlatformPlugin {
  name: string;
  /**
   * Steps whose decorations this one uses at start: those fastify-plugin
   * declares as `dependencies` (checked by fastify too) and those handed over
   * by hand (the notifications to sessions, the jobs to the ledger).
   */
  needs: readonly string[];
  register: (app: FastifyInstance, settings: PlatformSettings) => PromiseLike<unknown>;
}

/**
 * The platform's plugins in the order they start: the one list a platform
 * plugin joins, as `features/routes.ts` is for features. All of them share
 * the app's own context (fastify-plugin), so what they decorate and hook
 * reaches every feature registered after them. The order is written here
 * rather than read from a folder, so that it is reviewed in one diff and a
 * test (platform.test.ts) checks each step comes after what it needs.
 */
export const platformPlugins: readonly PlatformPlugin[] = [
  // First: the zod compilers and the request id every later hook and log line uses.
  { name: 'zod-schemas', needs: [], register: (app) => app.register(zodSchemas) },
  { name: 'request-id', needs: [], register: (app) => app.register(requestIdHeader) },
  { name: 'error-envelope', needs: [], register: (app) => app.register(errorEnvelope) },
  { name: 'json-body', needs: [], register: (app) => app.register(jsonBody) },
  {
    name: 'security-headers',
    needs: [],
    register: (app, settings) =>
      app.register(securityHeaders, {
        production: settings.production,
        ...(settings.webRoot === undefined ? {} : { webRoot: settings.webRoot }),
      }),
  },
  // Before any feature: it collects each route's description as the route is added.
  { name: 'openapi', needs: [], register: (app) => app.register(openApi) },
  {
    name: 'notifications',
    needs: [],
    register: (app, settings) => {
      const notifications = new DatabaseNotifications({
        newClient: () => newDatabaseClient(settings.databaseUrl, { application_name: 'peeks-notifications' }),
        log: settings.log,
        retryMs: settings.notificationRetryMs,
      });
      app.decorate('notifications', notifications);
      app.addHook('onClose', () => notifications.close());
      return Promise.resolve();
    },
  },
  {
    name: 'sessions',
    needs: ['notifications'],
    register: (app, settings) =>
      app.register(sessions, {
        db: settings.db,
        clock: settings.clock,
        secureCookie: !settings.insecureCookies,
        notifications: app.notifications,
      }),
  },
  {
    name: 'read-replica',
    needs: ['sessions'],
    register: (app, settings) => app.register(readReplica, { replica: settings.readReplica }),
  },
  { name: 'csrf', needs: ['sessions'], register: (app) => app.register(csrf) },
  { name: 'access', needs: ['sessions', 'csrf'], register: (app) => app.register(access) },
  { name: 'no-control-characters', needs: [], register: (app) => app.register(noControlCharacters) },
  {
    name: 'jobs',
    needs: [],
    register: async (app, settings) => {
      let jobs = settings.jobs;
      if (!jobs) {
        // Without a queue given, one of its own that only sends, closed with the app.
        const own = await openJobQueue(settings.databaseUrl, settings.log);
        app.addHook('onClose', own.close);
        jobs = own.jobs;
      }
      app.decorate('jobs', jobs);
    },
  },
  {
    name: 'ledger',
    needs: ['jobs', 'sessions'],
    register: (app, settings) =>
      app.register(ledger, {
        holdHours: settings.holdHours,
        cardFundsHoldHours: settings.cardFundsHoldHours,
        jobs: app.jobs,
      }),
  },
  {
    name: 'websocket',
    needs: [],
    register: (app) => app.register(websocket, { options: { maxPayload: 4096 }, preClose: closeLiveSockets }),
  },
  {
    name: 'rate-limits',
    needs: ['error-envelope'],
    register: (app, settings) =>
      app.register(rateLimits, { db: settings.db, clock: settings.clock, limits: settings.rateLimits }),
  },
  { name: 'api-reference', needs: [], register: (app) => app.register(apiReferenceRoutes) },
];

/** Every platform plugin, in the list's order, in the app's own context. */
export const platform = fp(
  async (app: FastifyInstance, settings: PlatformSettings) => {
    for (const plugin of platformPlugins) await plugin.register(app, settings);
  },
  { name: 'platform' },
);

/**
 * Shutdown: every live socket is told the server is going away (1001), so
 * browsers reconnect to another process, and the upgrade listener is gone
 * before the HTTP server closes. A peer that does not answer the close is cut
 * off by ws after its own timeout, which does not hold app.close().
 */
function closeLiveSockets(this: FastifyInstance, done: () => void): void {
  for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
  this.websocketServer.close(() => undefined);
  done();
}
