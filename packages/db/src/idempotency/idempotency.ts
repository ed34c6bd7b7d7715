import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { canonicalJson } from '../canonical-json.ts';
import type { Database } from '../schema.ts';

/** The key was used before for a different request; nothing was done. */
export class IdempotencyKeyReused extends Error {
  constructor(key: string) {
    super(`Idempotency-Key "${key}" was already used for a different request`);
    this.name = 'IdempotencyKeyReused';
  }
}

export interface IdempotentRequest {
  /** Whose keys these are (a user, a merchant's API client): keys never collide across scopes. */
  scope: string;
  key: string;
  /** fingerprintRequest() of what the request asks for. */
  fingerprint: string;
}

export interface IdempotentResponse<Body> {
  statusCode: number;
  body: Body;
}

/** sha256 over the canonical JSON of what makes two requests "the same". */
export function fingerprintRequest(parts: { method: string; path: string; body: unknown }): string {
  return createHash('sha256')
    .update(canonicalJson({ ...parts, body: parts.body ?? null }) ?? '', 'utf8')
    .digest('hex');
}

/**
 * Runs `work` at most once per (scope, key). The key is claimed inside the
 * same transaction as the work, so:
 *  - a retry after success gets the first response back and moves nothing;
 *  - a retry after a failure or a crash finds no claim and runs again;
 *  - a concurrent duplicate waits on the claim's row lock, then replays;
 *  - the same key with a different fingerprint is IdempotencyKeyReused.
 */
export async function runIdempotently<Body>(
  db: Kysely<Database>,
  request: IdempotentRequest,
  work: (trx: Transaction<Database>) => Promise<IdempotentResponse<Body>>,
): Promise<IdempotentResponse<Body> & { replayed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({ scope: request.scope, key: request.key, fingerprint: request.fingerprint, response: null })
      .onConflict((conflict) => conflict.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const first = await trx
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status_code', 'response'])
        .where('scope', '=', request.scope)
        .where('key', '=', request.key)
        .executeTakeFirstOrThrow();
      if (first.fingerprint !== request.fingerprint || first.status_code === null)
        throw new IdempotencyKeyReused(request.key);
      return { statusCode: first.status_code, body: first.response as Body, replayed: true };
    }

    const response = await work(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: response.statusCode, response: JSON.stringify(response.body), completed_at: new Date() })
      .where('scope', '=', request.scope)
      .where('key', '=', request.key)
      .execute();
    return { ...response, replayed: false };
  });
}

/** Forgets keys older than `olderThan`; their requests can no longer be retried safely. */
export async function expireIdempotencyKeys(db: Kysely<Database>, olderThan: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}
