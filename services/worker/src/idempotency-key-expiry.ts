import { expireIdempotencyKeys, type Database } from '@peeks/db';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';

export const IDEMPOTENCY_KEY_EXPIRY_QUEUE = 'idempotency-keys-expire';

/**
 * Every hour, forgets Idempotency-Keys older than `hours`. Within that time a
 * retried money request is answered from its first response; after it, the
 * key may be used again.
 */
export async function runIdempotencyKeyExpiry(boss: PgBoss, deps: { db: Kysely<Database>; hours: number; log: Logger; now?: () => Date }): Promise<void> {
  const now = deps.now ?? (() => new Date());
  await boss.createQueue(IDEMPOTENCY_KEY_EXPIRY_QUEUE);
  await boss.schedule(IDEMPOTENCY_KEY_EXPIRY_QUEUE, '17 * * * *');
  await boss.work(IDEMPOTENCY_KEY_EXPIRY_QUEUE, async () => {
    const cutOff = new Date(now().getTime() - deps.hours * 3_600_000);
    const removed = await expireIdempotencyKeys(deps.db, cutOff);
    deps.log.info({ removed, cutOff }, 'expired idempotency keys');
  });
}
