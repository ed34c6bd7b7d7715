import { randomBytes } from 'node:crypto';
import { resolveWithDns, type ResolveHost } from '@peeks/jobs';
import { DEFAULT_CARD_FUNDS_HOLD_HOURS } from '@peeks/ledger';
import type { LedgerJobs } from '@peeks/ledger-store';
import type { Database, ReadReplica } from '@peeks/db';
import { readConfig, type Logger } from '@peeks/runtime';
import fastify, { type RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { CardProcessorUnavailable, sandboxCardCharges, type CardCharges } from '@peeks/card-processor';
import { depositSettingsFrom, type DepositSettings } from './features/deposits/index.ts';
import { defaultCorrectionLimits, type CorrectionLimits } from './features/operations/index.ts';
import type { LiveOptions } from './features/wallet/index.ts';
import { apiFeatures } from './features/routes.ts';
import { configuredRates, type ExchangeRateSource } from './features/pricing/index.ts';
import { clientError, frameworkError } from './plugins/error-envelope.ts';
import { platform } from './plugins/platform.ts';
import { defaultRateLimits, type RateLimits } from './plugins/rate-limits.ts';
import { RequestLog, requestIdFor } from './plugins/request-log.ts';
import type { DatabaseNotifications } from './plugins/database-notifications.ts';
import { webApp } from './plugins/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    /** The card processor the app charges stored cards through. */
    cardCharges: CardCharges;
    /** Where requests enqueue later work, inside their own transactions. */
    jobs: LedgerJobs;
    /** The process's one LISTEN connection: live updates and the session and payee caches follow it. */
    notifications: DatabaseNotifications;
    /** Where the price list's exchange rates come from (configuration in development, a provider in production). */
    exchangeRates: ExchangeRateSource;
  }
}

export interface AppOptions {
  db: Kysely<Database>;
  /** The same database as `db`, for the one LISTEN connection. */
  databaseUrl: string;
  /** DATABASE_READ_URL's standbys: lag-tolerant reads go there (see `app.reader`); all reads go to `db` without it. */
  readReplica?: ReadReplica | null;
  /** Live update timings; tests shorten them. */
  live?: LiveOptions;
  /** The first wait before the LISTEN connection is reopened after a loss; 250 ms unless given. */
  notificationRetryMs?: number;
  log: Logger;
  /** The built web app to serve; left out, the server is API-only. */
  webRoot?: string;
  /** Session cookies without the Secure flag or the __Host- prefix: only for plain HTTP on a host other than localhost. */
  insecureCookies?: boolean;
  /** NODE_ENV=production: HSTS on every answer. */
  production?: boolean;
  /** The time as the app sees it (session expiry, rate-limit windows); tests pass their own. */
  clock?: () => Date;
  rateLimits?: Partial<RateLimits>;
  /** Proxies in front of the API whose X-Forwarded-For is believed (TRUST_PROXY_HOPS). */
  trustProxyHops?: number;
  webhooks?: {
    /** Config WEBHOOK_ALLOW_PRIVATE=1: webhook URLs may point at private and loopback hosts. */
    allowPrivate?: boolean;
    /** How a webhook URL's host is resolved; tests pass their own, with no network. */
    resolve?: ResolveHost;
  };
  /** Hours money received from others stays on hold (HOLD_HOURS); 24 unless given. */
  holdHours?: number;
  /** Hours coins bought by card wait before they can be withdrawn as cash (CARD_FUNDS_HOLD_HOURS); the ledger's default unless given. */
  cardFundsHoldHours?: number;
  /** Where the ledger's events leave later work; a sending-only queue of its own when not given. */
  jobs?: LedgerJobs;
  cardProcessor?: {
    /** CARD_PROCESSOR_URL: the sandbox processor's base URL; this app's own address when not given. */
    url?: string;
    /** CARD_PROCESSOR_TIMEOUT_MS: how long a call to the processor may take. */
    timeoutMs?: number;
    /** CARD_PROCESSOR_SECRET: the platform's credential for the processor; one made for this app when not given. */
    secret?: string;
  };
  /** Serve the sandbox card processor's routes (SANDBOX_PROCESSOR); true unless given. */
  sandboxProcessor?: boolean;
  /** The price list's exchange rates; CAD_USD_RATE's default (0.78) unless given. */
  exchangeRates?: ExchangeRateSource;
  /** Transfer recipients, bitcoin key and price (INTERAC_RECIPIENT, ZELLE_RECIPIENT, BITCOIN_*); the sandbox defaults unless given. */
  deposits?: DepositSettings;
  /** Development without SMTP_URL only: the operations console shows outbox messages' texts, secrets included. */
  outboxBodies?: boolean;
  /** CORRECTION_MAX_MINOR and CORRECTION_APPROVAL_MINOR: a correction's cap, and above what it needs a second operator. */
  corrections?: CorrectionLimits;
  /** SETTLEMENT_CRON: when the daily merchant settlement runs (UTC), for the dashboard's next settlement. */
  settlementCron?: string;
  /** The ledger log's verifier key (see ledgerLogSettingsFrom); without it the /api/ledger/* routes are not served. */
  ledgerLogKey?: string;
  /** Told of every route as it is added, plugins' own included: tests list the app's routes with it. */
  onRoute?: (route: RouteOptions) => void;
}

/** The HTTP app, ready for routes to be added and for listen() or inject(). */
export async function buildApp(options: AppOptions) {
  const app = fastify({
    loggerInstance: options.log,
    logController: new RequestLog(),
    genReqId: requestIdFor,
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError(options.log),
    // The spec's paths end in '/' in some places (/api/user/user-lookup/); both forms answer.
    routerOptions: { ignoreTrailingSlash: true },
    // Behind N proxies, request.ip is the address the Nth hop from the end saw.
    trustProxy: (_address: string, hop: number) => hop < (options.trustProxyHops ?? 0),
  }).withTypeProvider<ZodTypeProvider>();
  const clock = options.clock ?? (() => new Date());
  // Before any plugin, so that no route is added unseen.
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.decorate('db', options.db);
  app.decorate('exchangeRates', options.exchangeRates ?? configuredRates(readConfig({}).CAD_USD_RATE));
  const processorCredential = options.cardProcessor?.secret ?? randomBytes(32).toString('base64url');
  app.decorate(
    'cardCharges',
    sandboxCardCharges({
      baseUrl: () => options.cardProcessor?.url ?? ownAddress(app.server.address()),
      timeoutMs: options.cardProcessor?.timeoutMs ?? 10_000,
      credential: processorCredential,
    }),
  );

  await app.register(platform, {
    db: options.db,
    databaseUrl: options.databaseUrl,
    log: options.log,
    clock,
    production: options.production ?? false,
    webRoot: options.webRoot,
    insecureCookies: options.insecureCookies === true,
    notificationRetryMs: options.notificationRetryMs ?? 250,
    jobs: options.jobs ?? null,
    readReplica: options.readReplica ?? null,
    holdHours: options.holdHours ?? 24,
    cardFundsHoldHours: options.cardFundsHoldHours ?? DEFAULT_CARD_FUNDS_HOLD_HOURS,
    rateLimits: { ...defaultRateLimits, ...options.rateLimits },
  });
  const deposits = options.deposits ?? depositSettingsFrom(readConfig({}));
  await app.register(apiFeatures, {
    live: options.live ?? {},
    sandboxProcessorCredential: options.sandboxProcessor === false ? null : processorCredential,
    deposits,
    outboxBodies: options.outboxBodies ?? false,
    corrections: options.corrections ?? defaultCorrectionLimits,
    ledgerLogKey: options.ledgerLogKey ?? null,
    settlementCron: options.settlementCron ?? readConfig({}).SETTLEMENT_CRON,
    webhooks: {
      allowPrivate: options.webhooks?.allowPrivate ?? false,
      resolve: options.webhooks?.resolve ?? resolveWithDns,
    },
  });
  // Last: for any path no route above answers it serves the web app.
  if (options.webRoot) await app.register(webApp, { root: options.webRoot });
  return app;
}

/** Where this server can be reached from the same machine: the sandbox processor's default address. */
export function ownAddress(address: ReturnType<App['server']['address']>): string {
  if (address === null || typeof address === 'string')
    throw new CardProcessorUnavailable('the app is not listening, and CARD_PROCESSOR_URL is not set');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${address.family === 'IPv6' && host !== '127.0.0.1' ? `[${host}]` : host}:${address.port}`;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
