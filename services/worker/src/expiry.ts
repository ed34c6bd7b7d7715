import { expireIdempotencyKeys, type Database } from '@peeks/db';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';

export const IDEMPOTENCY_KEY_EXPIRY_QUEUE = 'idempotency-keys-expire';
export const SIGN_IN_RECORD_EXPIRY_QUEUE = 'sign-in-records-expire';

/** Recovery codes are kept a day past their expiry, for questions about a reset, then go. */
const RECOVERY_CODE_KEPT_MS = 24 * 3_600_000;

interface ExpiryDeps {
  db: Kysely<Database>;
  log: Logger;
  now?: () => Date;
}

/** One hourly job: a queue, its schedule, and a handler that deletes what is past its time. */
async function scheduleExpiry(
  boss: PgBoss,
  queue: string,
  cron: string,
  expire: (now: Date) => Promise<Record<string, number>>,
  deps: ExpiryDeps,
) {
  const now = deps.now ?? (() => new Date());
  await boss.createQueue(queue);
  await boss.schedule(queue, cron);
  await boss.work(queue, async () => {
    deps.log.info({ queue, removed: await expire(now()) }, 'expired records removed');
  });
}

/**
 * Every hour, forgets Idempotency-Keys older than `hours`. Within that time a
 * retried money request is answered from its first response; after it, the
 * key may be used again.
 */
export function runIdempotencyKeyExpiry(boss: PgBoss, deps: ExpiryDeps & { hours: number }): Promise<void> {
  return scheduleExpiry(
    boss,
    IDEMPOTENCY_KEY_EXPIRY_QUEUE,
    '17 * * * *',
    async (now) => ({
      idempotencyKeys: await expireIdempotencyKeys(deps.db, new Date(now.getTime() - deps.hours * 3_600_000)),
    }),
    deps,
  );
}

/**
 * Every hour, deletes sessions past their idle deadline, rate-limit windows
 * that have closed, and recovery codes a day past expiry: they are refused
 * already, and would otherwise only grow.
 */
export function runSignInRecordExpiry(boss: PgBoss, deps: ExpiryDeps): Promise<void> {
  return scheduleExpiry(
    boss,
    SIGN_IN_RECORD_EXPIRY_QUEUE,
    '23 * * * *',
    async (now) => {
      const sessions = await deps.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
      const windows = await deps.db.deleteFrom('rate_limit_hits').where('window_ends_at', '<=', now).executeTakeFirst();
      const codes = await deps.db
        .deleteFrom('password_recovery_codes')
        .where('expires_at', '<=', new Date(now.getTime() - RECOVERY_CODE_KEPT_MS))
        .executeTakeFirst();
      // Wrong-password counts start again after a day anyway; known addresses are kept for 90 days.
      const throttles = await deps.db
        .deleteFrom('sign_in_throttles')
        .where((eb) =>
          eb.or([
            eb.and([eb('key', 'not like', 'known:%'), eb('updated_at', '<', new Date(now.getTime() - 86_400_000))]),
            eb('updated_at', '<', new Date(now.getTime() - 90 * 86_400_000)),
          ]),
        )
        .executeTakeFirst();
      return {
        signInThrottles: Number(throttles.numDeletedRows),
        sessions: Number(sessions.numDeletedRows),
        rateLimitWindows: Number(windows.numDeletedRows),
        recoveryCodes: Number(codes.numDeletedRows),
      };
    },
    deps,
  );
}
