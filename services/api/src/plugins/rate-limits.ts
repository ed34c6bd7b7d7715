import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { errorCodes } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { refuse } from './error-envelope.ts';

export interface RateLimitPolicy {
  max: number;
  /** Milliseconds. */
  timeWindow: number;
  /** Whose allowance a request uses; the client address when not given. */
  keyGenerator?: (request: FastifyRequest) => string;
}

/**
 * For routes only a signed-in user reaches: each user has an allowance of
 * their own, from whatever address, and users behind one address do not
 * share one. (The session is found before the limit is checked.)
 */
export const bySignedInUser = (request: FastifyRequest): string =>
  request.session?.userId == null ? request.ip : `user:${request.session.userId}`;

/** Attempts per window: per client address for the routes that guess at credentials or create accounts, per user for costly or enumerable ones. */
export const defaultRateLimits = {
  login: { max: 10, timeWindow: 60_000 },
  registration: { max: 10, timeWindow: 60 * 60_000 },
  /** Each forgot-password step on its own counter: enough for a person, too few to guess 6-digit codes or flood an inbox. */
  recovery: { max: 10, timeWindow: 15 * 60_000 },
  /** Change password guesses the current password, from a session that may not be its owner's. */
  passwordChange: { max: 10, timeWindow: 15 * 60_000 },
  /** Every upload is decoded and re-encoded: CPU a user should not be able to spend without end. */
  uploads: { max: 30, timeWindow: 15 * 60_000, keyGenerator: bySignedInUser },
  /** The sandbox tokenizer stores a card per call, for anyone: enough for a person at checkout. */
  cardTokenize: { max: 30, timeWindow: 15 * 60_000 },
  /** user-list answers who has an account: fine for finding a recipient, too slow to list everyone. */
  recipientSearch: { max: 60, timeWindow: 60_000, keyGenerator: bySignedInUser },
} satisfies Record<string, RateLimitPolicy>;

export type RateLimits = Record<keyof typeof defaultRateLimits, RateLimitPolicy>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Put one in a route's `config.rateLimit`. */
    rateLimits: RateLimits;
  }
}

/** What the plugin hands a store: its options, and for a route's store the route. */
type RouteParams = FastifyRateLimitOptions & { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * A fixed-window counter per route and client in Postgres, so a limit holds
 * across every API process (the in-memory default would give each process
 * its own allowance). One upsert per limited request.
 */
function postgresStore(db: Kysely<Database>, clock: () => Date): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string;

    constructor(options: RouteParams) {
      const method = options.routeInfo?.method;
      this.#route = `${Array.isArray(method) ? method.join(',') : (method ?? '')} ${options.routeInfo?.url ?? ''}`;
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock();
      const windowEnds = new Date(now.getTime() + timeWindow);
      sql<{ hits: number; window_ends_at: Date }>`
        INSERT INTO rate_limit_hits AS counter (key, hits, window_ends_at) VALUES (${`${this.#route} ${key}`}, 1, ${windowEnds})
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN counter.window_ends_at <= ${now} THEN 1 ELSE counter.hits + 1 END,
          window_ends_at = CASE WHEN counter.window_ends_at <= ${now} THEN ${windowEnds} ELSE counter.window_ends_at END
        RETURNING hits, window_ends_at
      `
        .execute(db)
        .then(({ rows: [row] }) => {
          callback(null, {
            current: row?.hits ?? 1,
            ttl: (row?.window_ends_at ?? windowEnds).getTime() - now.getTime(),
          });
        })
        .catch((error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        });
    }

    child(routeOptions: RouteParams): FastifyRateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  };
}

export const rateLimits = fp(
  async (app: FastifyInstance, options: { db: Kysely<Database>; clock: () => Date; limits: RateLimits }) => {
    app.decorate('rateLimits', options.limits);
    await app.register(rateLimit, {
      global: false,
      store: postgresStore(options.db, options.clock),
      // Retry-After says when to come back.
      errorResponseBuilder: () => refuse(429, errorCodes.tooManyRequests),
    });
  },
  { name: 'rate-limits', dependencies: ['error-envelope'] },
);
