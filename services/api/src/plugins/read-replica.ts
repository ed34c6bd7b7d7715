import type { Database, ReadReplica } from '@peeks/db';
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

/** Whose writes a read must see: the signed-in person (any of their sessions here), else the session. */
function callerOf(request: FastifyRequest): string | null {
  const session = request.session;
  if (!session) return null;
  return session.userId === null ? `session:${session.key.toString('hex')}` : `user:${session.userId}`;
}

/**
 * Routes lag-tolerant reads. Every request that may have written (any method
 * but GET, HEAD and OPTIONS, whatever its answer: a 503 may have committed)
 * tells the replica before its answer leaves, so the caller's next read waits
 * for the standby to replay it. Requests that only read through `reader` do
 * not count as writes, or a list sent as POST would pin its reader to the
 * primary.
 */
export const readReplica = fp(
  (app: FastifyInstance, options: { replica: ReadReplica | null }) => {
    const { replica } = options;
    if (!replica) {
      app.decorate('reader', () => app.db);
      return Promise.resolve();
    }
    const readOnly = new WeakSet<FastifyRequest>();
    app.decorate('reader', (request: FastifyRequest) => {
      readOnly.add(request);
      return replica.readerFor(callerOf(request));
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      const caller = callerOf(request);
      if (caller !== null && !READS.has(request.method) && !readOnly.has(request)) replica.wrote(caller);
      done(null, payload);
    });
    return Promise.resolve();
  },
  { name: 'read-replica', dependencies: ['sessions'] },
);
