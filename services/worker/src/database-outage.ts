import type { Database } from '@peeks/db';
import type { Logger } from '@peeks/runtime';
import { sql, type Kysely } from 'kysely';

/** Connection refused, reset or cut by the server's shutdown (57P01..57P03), or a class 08 connection exception. */
const LOST_CONNECTION =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|terminating connection|shutting down|starting up/i;

export function isLostConnection(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('57P0') || code.startsWith('08') || code.startsWith('E')))
    return true;
  return typeof message === 'string' && LOST_CONNECTION.test(message);
}

/**
 * While the database is away, every poller of every queue fails every
 * second. That is one fact, so it is logged once, as a warning; a probe
 * then tries the database each second and logs when it is back. pg-boss
 * and the projections retry on their own: nothing needs restarting.
 * Any other error is logged as it comes.
 */
export function databaseOutageReporter(
  db: Kysely<Database>,
  log: Logger,
): (error: unknown, context?: Record<string, unknown>) => void {
  let probe: NodeJS.Timeout | undefined;
  return (error, context = {}) => {
    if (!isLostConnection(error)) {
      log.error({ err: error, ...context }, 'worker error');
      return;
    }
    if (probe) return;
    log.warn(
      { reason: (error as { message?: unknown }).message },
      'database unreachable; the workers wait and carry on when it is back',
    );
    probe = setInterval(() => {
      sql`SELECT 1`.execute(db).then(
        () => {
          clearInterval(probe);
          probe = undefined;
          log.info('database is back; the workers carry on');
        },
        () => undefined,
      );
    }, 1_000);
    probe.unref();
  };
}
