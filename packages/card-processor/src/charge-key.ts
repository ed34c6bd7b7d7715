import { createHmac } from 'node:crypto';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { platformSecret } from '@peeks/jobs';

/** Where the secret lives, and the time to stamp it with when it is first made. */
export interface Platform {
  db: Kysely<Database>;
  clock: () => Date;
}
/** One secret per database, however many callers (API routes, workers) ask. */
const secrets = new WeakMap<Kysely<Database>, Promise<Buffer>>();

/**
 * The processor's idempotency key for a charge the platform makes under
 * `reference` (a transaction id, or a checkout's id with its card). It is
 * an HMAC under a platform secret, so it is the same on every retry and in
 * every API process, yet nobody who sees a transaction id can name the
 * charge to the processor (issue 21: a refund asked for by tx_id).
 */
export async function chargeKeyFor(app: Platform, reference: string): Promise<string> {
  let secret = secrets.get(app.db);
  if (!secret) {
    secret = platformSecret(app.db, 'card-charge-keys', app.clock());
    secrets.set(app.db, secret);
    secret.catch(() => secrets.delete(app.db));
  }
  return `ck_${createHmac('sha256', await secret)
    .update(reference)
    .digest('base64url')}`;
}
