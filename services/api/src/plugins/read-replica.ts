import { formatLsn, parseLsn, type Database, type ReadReplica } from '@peeks/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The database for a read that tolerates a little lag (history, reports,
     * the console's event log): a standby of DATABASE_READ_URL when it is
     * close enough behind and has replayed the caller's last write, else the
     * primary (`db`). Never for a read that decides a write.
     */
    reader: (request: FastifyRequest) => Kysely<Database>;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The caller's last write's WAL position, so that whichever API process
 * serves their next read knows it. Not a secret: a browser that lowers it
 * only reads its own older data.
 */
export const WROTE_COOKIE = '__Host-peeks_wrote';
export const INSECURE_WROTE_COOKIE = 'peeks_wrote';
const LSN_TEXT = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;

/** Whose writes a read must see: the signed-in person (any of their sessions here), else the session. */
function callerOf(request: FastifyRequest): string | null {
  const session = request.session;
  if (!session) return null;
  return session.userId === null ? `session:${session.key.toString('hex')}` : `user:${session.userId}`;
}

/**
 * Routes lag-tolerant reads. Every request that may have written (any method
 * but GET, HEAD and OPTIONS, whatever its answer: a 503 may have committed)
 * reads the primary's WAL position before its answer leaves, remembers it
 * for the caller and sends it as a cookie, so the caller's next read, in
 * this process or another, waits for the standby to replay it. Requests
 * that only read through `reader` do not count as writes, or a list sent as
 * POST would pin its reader to the primary.
 */
export const readReplica = fp(
  (app: FastifyInstance, options: { replica: ReadReplica | null }) => {
    const { replica } = options;
    if (!replica) {
      app.decorate('reader', () => app.db);
      return Promise.resolve();
    }
    const cookieName = app.sessions.cookie.secure === true ? WROTE_COOKIE : INSECURE_WROTE_COOKIE;
    const cookie = { ...app.sessions.cookie, maxAge: Math.max(60, Math.ceil((2 * replica.maxLagMs) / 1000)) };
    const readOnly = new WeakSet<FastifyRequest>();
    app.decorate('reader', (request: FastifyRequest) => {
      readOnly.add(request);
      const sent = request.cookies[cookieName];
      return replica.readerFor(
        callerOf(request),
        sent !== undefined && LSN_TEXT.test(sent) ? parseLsn(sent) : undefined,
      );
    });
    app.addHook('onSend', async (request, reply) => {
      const caller = callerOf(request);
      if (caller === null || READS.has(request.method) || readOnly.has(request)) return;
      try {
        const lsn = await replica.primaryPosition();
        replica.wrote(caller, lsn);
        void reply.setCookie(cookieName, formatLsn(lsn), cookie);
      } catch {
        // The primary did not say (it is going away): the next sample stands in, in this process only.
        replica.wrote(caller);
      }
    });
    return Promise.resolve();
  },
  { name: 'read-replica', dependencies: ['sessions'] },
);
