/**
 * SQLSTATEs of a database that is away or going away: class 08 (connection
 * exception), 57P01..57P03 (shut down by an administrator, a crash, or not
 * yet accepting connections: a restart), 53300 (too many connections) and
 * 25006 (a write on a read-only server: a primary that stepped down in a
 * failover, before its connections are cut; the write did nothing, and a
 * fresh connection finds the new primary).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300|25006)$/;
/** The network's refusals, as Node reports them when connecting to or reading from the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own words for a connection that went or never came. */
const DRIVER_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;
/** How far down `cause` and AggregateError's `errors` the reason is looked for. */
const MAX_LINKS = 8;

/**
 * Whether `error` says the database could not be reached, or went away
 * while it was being used (a restart, a failover, a full server), rather
 * than refusing what was asked: then nothing was committed, and the same
 * request may be sent again later. Looks through `cause` and the `errors`
 * of an AggregateError (a refused connection to each address of a host).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let looked = 0; looked < MAX_LINKS && pending.length > 0; looked += 1) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null) continue;
    const { code, message, cause, errors } = next as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || NETWORK_CODES.has(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGE.test(message)) return true;
    if (cause !== undefined) pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return false;
}
