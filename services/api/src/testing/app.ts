import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App, type AppOptions } from '../app.ts';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import { TEST_LOG_KEY } from './ledger-log.ts';

export interface TestApp {
  app: App;
  database: TestDatabase;
  /** Every log line the app wrote, parsed. */
  logLines: Record<string, unknown>[];
  /** Every route the app serves, as fastify added them (HEAD twins of GET routes included). */
  routes: { method: string; url: string }[];
  /** A new browser on this app, with a session and its CSRF token from GET /api/session. */
  browser(remoteAddress?: string): Promise<TestBrowser>;
  close(): Promise<void>;
}

type TestAppOptions = Pick<
  AppOptions,
  | 'webRoot'
  | 'clock'
  | 'rateLimits'
  | 'webhooks'
  | 'trustProxyHops'
  | 'holdHours'
  | 'cardFundsHoldHours'
  | 'cardProcessor'
  | 'deposits'
  | 'exchangeRates'
  | 'live'
  | 'notificationRetryMs'
  | 'sandboxProcessor'
  | 'corrections'
  | 'outboxBodies'
  | 'production'
  | 'ledgerLogKey'
  | 'readReplica'
> & { extend?: (app: App) => void; database?: TestDatabase };

/** The processor credential test apps use, so tests can call the sandbox processor as the platform does. */
export const TEST_PROCESSOR_SECRET = 'test-processor-credential-0123456789abcdef';
export const processorHeaders = { authorization: `Bearer ${TEST_PROCESSOR_SECRET}` };

/** The real app over a database of its own (or a given one), with its log captured for assertions. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { extend, database: given, ...appOptions } = options;
  const database = given ?? (await createTestDatabase());
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const routes: TestApp['routes'] = [];
  const onRoute: AppOptions['onRoute'] = (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  };
  const app = await buildApp({
    db: database.db,
    databaseUrl: database.url,
    log: createLogger({ LOG_LEVEL: 'info' }, sink),
    onRoute,
    ledgerLogKey: TEST_LOG_KEY.vkey,
    ...appOptions,
    cardProcessor: { secret: TEST_PROCESSOR_SECRET, ...appOptions.cardProcessor },
    // Tests tokenize many cards from one address; the limit itself has its own test.
    rateLimits: { cardTokenize: { max: 1_000_000, timeWindow: 60_000 }, ...appOptions.rateLimits },
  });
  extend?.(app);
  // Listening on loopback, so the app can reach its own sandbox card processor over real HTTP.
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    logLines,
    routes,
    browser: (remoteAddress) => new TestBrowser(app, remoteAddress).open(),
    close: async () => {
      await app.close();
      if (!given) await database.drop();
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What the web app does: keeps the session cookie and the latest CSRF token
 * and sends both with every request.
 */
export class TestBrowser {
  readonly app: App;
  readonly remoteAddress: string;
  cookie: string | undefined;
  csrfToken: string | undefined;

  constructor(app: App, remoteAddress = '127.0.0.1') {
    this.app = app;
    this.remoteAddress = remoteAddress;
  }

  async open(): Promise<this> {
    await this.request('GET', '/api/session');
    return this;
  }

  /** `body` goes as JSON, whatever it is; `headers` replace the browser's own. */
  async request(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        ...(this.cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${this.cookie}` }),
        ...(this.csrfToken === undefined ? {} : { 'x-csrf-token': this.csrfToken }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const cookie = response.cookies.find((each) => each.name === SESSION_COOKIE);
    if (cookie) this.cookie = cookie.value === '' ? undefined : cookie.value;
    const answer = response.headers['content-type']?.toString().startsWith('application/json')
      ? response.json<{ csrfToken?: unknown }>()
      : {};
    if (typeof answer.csrfToken === 'string') this.csrfToken = answer.csrfToken;
    return response;
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, body?: unknown) {
    return this.request('POST', url, body);
  }
}
