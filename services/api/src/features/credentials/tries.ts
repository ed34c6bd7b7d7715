import { SECRET_LOCK_MINUTES, SECRET_TRIES } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';

export type SecretKind = 'pin' | 'security-answers';
export type SecretCheck = { outcome: 'right' } | { outcome: 'wrong' | 'locked'; lockedUntil: Date | null };

/**
 * Checks a PIN or a set of answers with a bounded number of tries. A try is
 * spent before the secret is compared, in one statement, so guesses sent at
 * once still get SECRET_TRIES between them; the try that spends the last one
 * locks the kind for SECRET_LOCK_MINUTES, and a right answer clears the
 * count (and that lock). A lock that has run out starts a fresh count.
 */
export async function checkWithTries(
  db: Kysely<Database>,
  userId: number,
  kind: SecretKind,
  now: Date,
  compare: () => Promise<boolean>,
): Promise<SecretCheck> {
  const lockEnd = new Date(now.getTime() + SECRET_LOCK_MINUTES * 60_000);
  const expired = sql`t.locked_until IS NOT NULL AND t.locked_until <= ${now}`;
  const spent = sql`CASE WHEN ${expired} THEN 1 ELSE t.failures + 1 END`;
  const { rows } = await sql<{ failures: number }>`
    INSERT INTO secret_tries AS t (user_id, secret, failures, locked_until)
    VALUES (${userId}, ${kind}, 1, NULL)
    ON CONFLICT (user_id, secret) DO UPDATE SET
      failures = ${spent},
      locked_until = CASE WHEN ${spent} >= ${SECRET_TRIES} THEN ${lockEnd}::timestamptz ELSE NULL END
    WHERE t.locked_until IS NULL OR t.locked_until <= ${now}
    RETURNING failures`.execute(db);
  const failures = rows[0]?.failures;
  if (failures === undefined) return { outcome: 'locked', lockedUntil: await lockedUntil(db, userId, kind, now) };
  if (await compare()) {
    await db
      .updateTable('secret_tries')
      .set({ failures: 0, locked_until: null })
      .where('user_id', '=', userId)
      .where('secret', '=', kind)
      .execute();
    return { outcome: 'right' };
  }
  return failures >= SECRET_TRIES
    ? { outcome: 'locked', lockedUntil: lockEnd }
    : { outcome: 'wrong', lockedUntil: null };
}

/** Until when wrong tries lock this kind; null when it is open. */
export async function lockedUntil(
  db: Kysely<Database>,
  userId: number,
  kind: SecretKind,
  now: Date,
): Promise<Date | null> {
  const row = await db
    .selectFrom('secret_tries')
    .select('locked_until')
    .where('user_id', '=', userId)
    .where('secret', '=', kind)
    .where('locked_until', '>', now)
    .executeTakeFirst();
  return row?.locked_until ?? null;
}

/** Forgets the count, as when the secret itself is replaced. */
export async function clearTries(db: Kysely<Database>, userId: number, kind: SecretKind): Promise<void> {
  await db.deleteFrom('secret_tries').where('user_id', '=', userId).where('secret', '=', kind).execute();
}
