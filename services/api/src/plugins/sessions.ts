import { createHash, randomBytes } from 'node:crypto';
import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import { errorCodes } from '@peeks/contracts';
import type { Database, SessionsTable } from '@peeks/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import { afterCommit } from './after-commit.ts';
import type { DatabaseNotifications } from './database-notifications.ts';
import { NotifiedCache } from './notified-cache.ts';
import { refuse } from './error-envelope.ts';

/**
 * The session cookie: `__Host-` (Secure, Path=/, no Domain: only this host
 * can set or read it; browsers accept it on http://localhost too). A
 * plain-HTTP host other than localhost (COOKIE_SECURE=off) gets the plain name.
 */
export const SESSION_COOKIE = '__Host-peeks_session';
export const INSECURE_SESSION_COOKIE = 'peeks_session';
/** Signed-in or not, a session ends after 30 minutes without a request (spec §9). */
export const SESSION_IDLE_MS = 30 * 60_000;
// The idle deadline moves at most once a minute, so most requests only read the row.
const TOUCH_AFTER_MS = 60_000;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The channel migration 0071's trigger announces a session's end or change on, with its key in hex. */
const SESSION_CHANGES_CHANNEL = 'session_changes';
const MAX_CACHED_SESSIONS = 50_000;

type SessionRow = Pick<
  Selectable<SessionsTable>,
  'user_id' | 'merchant_id' | 'csrf_token' | 'last_seen_at' | 'expires_at'
>;

export interface Session {
  /** SHA-256 of the cookie value: what the row is keyed by. */
  key: Buffer;
  userId: number | null;
  merchantId: number | null;
  csrfToken: string;
}

export interface SignedInSession extends Session {
  userId: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The time as the app sees it; tests pass their own. */
    clock: () => Date;
    sessions: SessionStore;
  }
  interface FastifyRequest {
    /** The caller's live session, or null: none sent, unknown, or idle too long. */
    session: Session | null;
  }
}

const keyOf = (cookieValue: string) => createHash('sha256').update(cookieValue).digest();
const randomToken = () => randomBytes(32).toString('base64url');

/** Sessions in Postgres, keyed by the hash of the cookie value. */
export class SessionStore {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;
  readonly cookie: CookieSerializeOptions;
  readonly cookieName: string;
  readonly #watchers: ((key: Buffer) => void)[] = [];
  readonly #cache: NotifiedCache<SessionRow> | null = null;
  /** Settles once the cache follows its channel. */
  readonly ready: Promise<void> = Promise.resolve();

  /** With `notifications`, sessions read are kept in memory while the database announces their changes (migration 0071). */
  constructor(
    db: Kysely<Database>,
    clock: () => Date,
    cookie: CookieSerializeOptions,
    notifications?: DatabaseNotifications,
  ) {
    this.#db = db;
    this.#clock = clock;
    this.cookie = cookie;
    this.cookieName = cookie.secure === true ? SESSION_COOKIE : INSECURE_SESSION_COOKIE;
    if (notifications) {
      this.#cache = new NotifiedCache({
        channel: SESSION_CHANGES_CHANNEL,
        maxEntries: MAX_CACHED_SESSIONS,
        maxAgeMs: TOUCH_AFTER_MS,
      });
      this.ready = this.#cache.follow(notifications);
    }
  }

  /** The live session a cookie value names; seeing it pushes its idle deadline forward. */
  async find(cookieValue: string): Promise<Session | null> {
    if (!COOKIE_VALUE.test(cookieValue)) return null;
    const key = keyOf(cookieValue);
    const cacheKey = key.toString('hex');
    const now = this.#clock();
    const read = () =>
      this.#db
        .selectFrom('sessions')
        .select(['user_id', 'merchant_id', 'csrf_token', 'last_seen_at', 'expires_at'])
        .where('session_key', '=', key)
        .where('expires_at', '>', now)
        .executeTakeFirst()
        .then((row) => row ?? null);
    let row = this.#cache ? await this.#cache.read(cacheKey, read) : await read();
    // A cached deadline may be one another process has moved since: the database decides.
    if (row && row.expires_at <= now && this.#cache) {
      this.#cache.forget(cacheKey);
      row = await this.#cache.read(cacheKey, read);
    }
    if (!row || row.expires_at <= now) return null;
    if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_AFTER_MS) {
      const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
      await this.#db
        .updateTable('sessions')
        .set({ last_seen_at: now, expires_at: expiresAt })
        .where('session_key', '=', key)
        .execute();
      this.#cache?.replace(cacheKey, { ...row, last_seen_at: now, expires_at: expiresAt });
    }
    return { key, userId: row.user_id, merchantId: row.merchant_id, csrfToken: row.csrf_token };
  }

  /** A new session with a fresh id and CSRF token, in place of `replaces`. */
  async start(
    owner: { userId: number; merchantId: number | null } | null,
    replaces: Buffer | null,
  ): Promise<{ cookieValue: string; session: Session }> {
    const cookieValue = randomToken();
    const session: Session = {
      key: keyOf(cookieValue),
      userId: owner?.userId ?? null,
      merchantId: owner?.merchantId ?? null,
      csrfToken: randomToken(),
    };
    const now = this.#clock();
    if (replaces) await this.end(replaces);
    await this.#db
      .insertInto('sessions')
      .values({
        session_key: session.key,
        user_id: session.userId,
        merchant_id: session.merchantId,
        csrf_token: session.csrfToken,
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + SESSION_IDLE_MS),
      })
      .execute();
    return { cookieValue, session };
  }

  async end(key: Buffer): Promise<void> {
    await this.#db.deleteFrom('sessions').where('session_key', '=', key).execute();
    this.#changed(key);
  }

  async actFor(key: Buffer, merchantId: number): Promise<void> {
    await this.#db.updateTable('sessions').set({ merchant_id: merchantId }).where('session_key', '=', key).execute();
    this.#changed(key);
  }

  /**
   * Forgets at once the cached sessions of `userId`, after this process ended
   * them in the database (a ban, a revoked session, a new password): the
   * database's announcement reaches this process a moment after the commit,
   * and a request in that moment must not pass on the ended session.
   */
  forgetUser(userId: number): void {
    this.#cache?.forgetWhere((row) => row.user_id === userId);
  }

  /** Tells `watcher` of every session this process ends or switches to another merchant (live sockets close on it). */
  watch(watcher: (key: Buffer) => void): void {
    this.#watchers.push(watcher);
  }

  #changed(key: Buffer): void {
    this.#cache?.forget(key.toString('hex'));
    for (const watcher of this.#watchers) watcher(key);
  }
}

/** The session cache of this process, as what ends a user's sessions needs it. */
export type SessionCache = Pick<SessionStore, 'forgetUser'>;

/**
 * Ends every session of `userId` but `keep` (the caller's own), as a password
 * change must: whoever knew the old password is signed out everywhere.
 * Takes the caller's transaction (begun by after-commit.ts's `transaction`),
 * once it has committed, `sessions` forgets them.
 */
export async function endOtherSessions(
  db: Kysely<Database>,
  sessions: SessionCache,
  userId: number,
  keep: Buffer | null,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('session_key', '!=', keep);
  await query.execute();
  forgetOnCommit(db, sessions, userId);
}

/** Once `trx` has committed, `sessions` forgets the cached sessions of `userId` that it ended. */
export function forgetOnCommit(trx: Kysely<Database>, sessions: SessionCache, userId: number): void {
  afterCommit(trx, () => {
    sessions.forgetUser(userId);
  });
}

interface SessionOptions {
  db: Kysely<Database>;
  clock: () => Date;
  /** Secure cookies everywhere but on a developer's plain-HTTP localhost. */
  secureCookie: boolean;
  /** The process's LISTEN connection: with it, sessions read are cached until the database announces a change. */
  notifications?: DatabaseNotifications;
}

/**
 * Starts a new session for `owner` (null: signed out) and sends its cookie.
 * The old session, if any, is gone: a new id at every sign-in, so an id
 * planted before it (session fixation) is worth nothing after it.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  owner: { userId: number; merchantId: number | null } | null,
): Promise<Session> {
  const { cookieValue, session } = await request.server.sessions.start(owner, request.session?.key ?? null);
  void reply.setCookie(request.server.sessions.cookieName, cookieValue, request.server.sessions.cookie);
  request.session = session;
  return session;
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) await request.server.sessions.end(request.session.key);
  request.session = null;
  void reply.clearCookie(request.server.sessions.cookieName, request.server.sessions.cookie);
}

/** The caller's session if someone is signed in to it; else the request ends with 401. */
export function signedIn(request: FastifyRequest): SignedInSession {
  const session = request.session;
  if (session?.userId == null) throw refuse(401, errorCodes.notSignedIn);
  return { ...session, userId: session.userId };
}

/**
 * An onRequest hook for a feature whose every route needs a signed-in user:
 * 401 before the input is even validated, so a signed-out caller learns
 * nothing about the route but that.
 */
export function requireSignIn(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  done(request.session?.userId == null ? refuse(401, errorCodes.notSignedIn) : undefined);
}

/**
 * Server-side sessions behind an HttpOnly, SameSite=Lax cookie. Every API
 * request with the cookie finds its session before anything else runs.
 */
export const sessions = fp(
  async (app: FastifyInstance, options: SessionOptions) => {
    await app.register(fastifyCookie);
    app.decorate('clock', options.clock);
    const store = new SessionStore(
      options.db,
      options.clock,
      { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secureCookie },
      options.notifications,
    );
    await store.ready;
    app.decorate('sessions', store);
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/')) return;
      const cookieValue = request.cookies[app.sessions.cookieName];
      request.session = cookieValue === undefined ? null : await app.sessions.find(cookieValue);
    });
  },
  { name: 'sessions' },
);
