import type { RouteOptions } from 'fastify';
import type { z } from 'zod';

/** One tag per feature folder, with what the feature is for. */
export const featureTags = {
  accounts: 'Registration of personal and business accounts, and looking users and merchants up.',
  addresses: "The signed-in user's postal addresses.",
  agreements: 'The terms each user or merchant accepts.',
  'card-payments': 'Buying coins and paying by stored card, and withdrawals to a card or bank account.',
  'card-processor':
    'The sandbox card processor: the browser-facing tokenizer, and the platform-to-processor calls (credential, not session).',
  checkout: 'Merchant checkout sessions and paying them.',
  contacts: "The signed-in user's contacts.",
  credentials: 'PIN and security questions.',
  deposits: 'Deposits by e-mail transfer (Interac, Zelle) and by bitcoin.',
  health: 'Liveness of the API and its database.',
  'ledger-log':
    'The verifiable ledger log: signed checkpoints, inclusion and consistency proofs (RFC 9162, C2SP signed notes).',
  'merchant-space': "The merchant's dashboard, sales, returns, settlements and reports.",
  merchants: 'Merchant profile, terminals and categories.',
  operations: "The finance operators' console: deposits, withdrawals, corrections, audit.",
  'payment-methods': 'Stored cards and bank accounts.',
  profile: 'Profile, preferences and password.',
  recovery: 'Forgotten password: recovery e-mail, code and reset.',
  'send-fund': 'Sending money to another user or merchant.',
  sessions: 'Sign-in, sign-out, the session and its CSRF token.',
  uploads: 'Avatars and identity documents.',
  users: 'Finding recipients.',
  wallet: 'Balances, ledger, transactions, coins and live updates.',
  webhooks: 'Webhook endpoints, their deliveries and replays.',
} as const;

export type Feature = keyof typeof featureTags;

/** A refusal beyond the ones every route of its kind can give (400, 401, 403 CSRF, 429, 500). */
export type ExtraStatus = 401 | 403 | 404 | 409 | 422 | 503;

/**
 * What a route says of itself beside its schema, in its `config.operation`:
 * what the OpenAPI document cannot read from the zod schemas (a stable
 * operationId, a summary, its feature as the tag, the refusals its handler
 * gives) and who may call it where `config.access` (whether the app-wide
 * check wants a session) does not say it all. Every /api route has one, or
 * is hidden from the document (`schema.hide`): the app refuses to start
 * otherwise.
 */
export interface RouteOperation {
  operationId: string;
  summary: string;
  tag: Feature;
  /** Statuses the handler answers beyond the route-wide ones. */
  errors?: readonly ExtraStatus[];
  /** The route honours an `Idempotency-Key` header (and answers 409 for a key reused for another request). */
  idempotent?: true;
  /**
   * Who the route lets through beyond what `config.access` says: members of
   * the acting merchant with the route's permission ('merchant') or finance
   * operators ('operator'), the others answered 403; or any signed-in user
   * ('signed-in') for a route that is public to the app-wide session check
   * because it answers a signed-out caller itself (the live socket).
   */
  caller?: 'signed-in' | 'merchant' | 'operator';
  /** A longer note for the reference. */
  description?: string;
  /** An example of a valid JSON request body (checked against the schema by the lint). */
  example?: Record<string, unknown>;
  /** A multipart/form-data request: its text fields' schema, beside the `file`. */
  form?: z.ZodType;
  /** The 200 answer's media type when it is not JSON. */
  produces?: 'text/csv' | 'text/html' | 'image/*';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route is, for the OpenAPI document and the route-wide tests (see openapi/route-operation.ts). */
    operation?: RouteOperation;
  }
}

/** Who may call a route, as its options say: the class the authorization matrix checks. */
export type AccessClass = 'public' | 'signed-in' | 'merchant-only' | 'operator' | 'processor';

export function accessClassOf(
  config: Pick<NonNullable<RouteOptions['config']>, 'access' | 'operation'> = {},
): AccessClass {
  const caller = config.operation?.caller;
  if (caller === 'merchant') return 'merchant-only';
  if (caller !== undefined) return caller;
  return config.access ?? 'signed-in';
}

/** 'POST /api/login': how the document, the tests and the errors below name a route. */
export const routeKey = (method: string, url: string) => `${method} ${url}`;

/**
 * An onRoute check that every /api route describes itself: a route added
 * without `config.operation` (unless hidden from the document), or with an
 * operationId another route has, throws, so the app does not start.
 */
export function describedRoutes(): (route: RouteOptions) => void {
  const operationIds = new Map<string, string>();
  return (route) => {
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    if (methods.length === 0 || !route.url.startsWith('/api/')) return;
    const key = routeKey(methods.join(','), route.url);
    const operation = route.config?.operation;
    if (operation === undefined) {
      if (route.schema?.hide === true) return;
      throw new Error(
        `${key} does not describe itself: give it config.operation (operationId, summary, tag) beside its schema`,
      );
    }
    const taken = operationIds.get(operation.operationId);
    if (taken !== undefined && taken !== key)
      throw new Error(`${key} has operationId ${operation.operationId}, which ${taken} already has`);
    operationIds.set(operation.operationId, key);
  };
}
