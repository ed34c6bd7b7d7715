import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';

/**
 * Per-account sign-in throttling, after the OWASP authentication cheat
 * sheet: wrong passwords are counted per account (whatever the address) and
 * per account and address, and past a few free tries each further one must
 * wait a doubling delay, capped. Each attempt is counted before its password
 * is checked, in the same statement that checks the lock, so guesses sent
 * at once cannot all pass a lock read before any of them was counted. A
 * lock answers 429 before the password is even checked, so guesses spread
 * over many addresses stop too. The
 * per-account lock does not hold for an address the account has signed in
 * from before: an attacker elsewhere cannot lock the owner out, who meets
 * only the lock of their own address.
 */
export interface ThrottleRule {
  /** Wrong passwords allowed before the first delay. */
  freeTries: number;
  /** The longest delay, in ms. */
  capMs: number;
}

export const ACCOUNT_RULE: ThrottleRule = { freeTries: 10, capMs: 15 * 60_000 };
export const ADDRESS_RULE: ThrottleRule = { freeTries: 5, capMs: 15 * 60_000 };
/** A count older than this starts again from nothing. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

/** How long the key must wait after its `failures`th wrong password: 1 s, 2 s, 4 s, … up to the cap. */
export function delayAfter(failures: number, rule: ThrottleRule): number {
  if (failures < rule.freeTries) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - rule.freeTries, 30), rule.capMs);
}

const accountKey = (userId: number) => `account:${userId}`;
const pairKey = (userId: number, address: string) => `account:${userId}@${address}`;
const knownKey = (userId: number, address: string) => `known:${userId}@${address}`;

/**
 * Counts one sign-in attempt on `key` before its password is checked, and
 * says whether it may go ahead. The count and the lock check are one
 * statement: the upsert takes the row's lock, so attempts racing on one key
 * queue there and each sees the others' counts. An attempt meeting a lock
 * changes nothing and gets no row back. The attempt that reaches the rule's
 * free tries sets the doubling delay (as `delayAfter` says) on its way in,
 * so no more than the free tries are ever checked before the lock holds.
 */
async function admit(db: Kysely<Database>, key: string, rule: ThrottleRule, now: Date): Promise<boolean> {
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_MS);
  const failures = sql<number>`CASE WHEN t.updated_at < ${forgetBefore} THEN 1 ELSE t.failures + 1 END`;
  const free = sql<number>`${rule.freeTries}::integer`;
  const blockedAfter = (count: typeof failures) =>
    sql<Date | null>`CASE WHEN ${count} >= ${free}
      THEN ${now}::timestamptz
        + LEAST(1000 * power(2, LEAST(${count} - ${free}, 30)), ${rule.capMs}::integer) * interval '1 millisecond'
      END`;
  const { rows } = await sql<{ failures: number }>`
    INSERT INTO sign_in_throttles AS t (key, failures, blocked_until, updated_at)
      VALUES (${key}, 1, ${blockedAfter(sql`1`)}, ${now})
    ON CONFLICT (key) DO UPDATE SET failures = ${failures}, blocked_until = ${blockedAfter(failures)}, updated_at = ${now}
      WHERE t.blocked_until IS NULL OR t.blocked_until <= ${now}
    RETURNING failures
  `.execute(db);
  return rows.length > 0;
}

/**
 * Gives back an attempt `admit` counted that was no wrong password: the
 * right one, or one that another key's lock stopped before the check. A
 * lock that the attempt set goes with it.
 */
async function credit(db: Kysely<Database>, key: string, rule: ThrottleRule): Promise<void> {
  await sql`
    UPDATE sign_in_throttles SET
      failures = GREATEST(failures - 1, 0),
      blocked_until = CASE WHEN failures - 1 < ${rule.freeTries} THEN NULL ELSE blocked_until END
    WHERE key = ${key}
  `.execute(db);
}

/** Milliseconds `key` stays locked after `now`; at least 1, since it was just found locked. */
async function lockedFor(db: Kysely<Database>, key: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('sign_in_throttles')
    .select('blocked_until')
    .where('key', '=', key)
    .executeTakeFirst();
  return Math.max(1, (row?.blocked_until?.getTime() ?? 0) - now.getTime());
}

/** One sign-in attempt as `signInAttempt` let it in (or not). */
export interface SignInAttempt {
  userId: number;
  address: string;
  /** Milliseconds to wait before trying again; 0 when the password may be checked now. */
  waitMs: number;
  /** The account has signed in from this address before, so its per-account lock does not hold here. */
  knownAddress: boolean;
}

/**
 * One attempt at `userId`'s password from `address`, counted as a wrong
 * one before the password is checked. The address's own lock holds always;
 * the account's holds except for an address the account has signed in from
 * before, where the account's count is kept after the check instead, as
 * nothing waits on it there. A refused attempt leaves nothing counted.
 */
export async function signInAttempt(
  db: Kysely<Database>,
  userId: number,
  address: string,
  now: Date,
): Promise<SignInAttempt> {
  const known = await db
    .selectFrom('sign_in_throttles')
    .select('key')
    .where('key', '=', knownKey(userId, address))
    .executeTakeFirst();
  const attempt = { userId, address, waitMs: 0, knownAddress: known !== undefined };
  if (!(await admit(db, pairKey(userId, address), ADDRESS_RULE, now)))
    return { ...attempt, waitMs: await lockedFor(db, pairKey(userId, address), now) };
  if (!attempt.knownAddress && !(await admit(db, accountKey(userId), ACCOUNT_RULE, now))) {
    await credit(db, pairKey(userId, address), ADDRESS_RULE);
    return { ...attempt, waitMs: await lockedFor(db, accountKey(userId), now) };
  }
  return attempt;
}

async function countFailure(db: Kysely<Database>, key: string, rule: ThrottleRule, now: Date): Promise<void> {
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_MS);
  const { rows } = await sql<{ failures: number }>`
    INSERT INTO sign_in_throttles AS t (key, failures, updated_at) VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN t.updated_at < ${forgetBefore} THEN 1 ELSE t.failures + 1 END,
      updated_at = ${now}
    RETURNING failures
  `.execute(db);
  const delay = delayAfter(rows[0]?.failures ?? 1, rule);
  if (delay > 0)
    await db
      .updateTable('sign_in_throttles')
      .set({ blocked_until: new Date(now.getTime() + delay) })
      .where('key', '=', key)
      .execute();
}

/**
 * A wrong password after `attempt`: already counted, except on the account
 * for a known address, whose lock does not stop that address anyway.
 */
export async function signInFailed(db: Kysely<Database>, attempt: SignInAttempt, now: Date): Promise<void> {
  if (attempt.knownAddress) await countFailure(db, accountKey(attempt.userId), ACCOUNT_RULE, now);
}

/** The right password: its attempt is taken back, the address's count forgotten and the address known from now on. */
export async function signInSucceeded(db: Kysely<Database>, attempt: SignInAttempt, now: Date): Promise<void> {
  const { userId, address } = attempt;
  if (!attempt.knownAddress) await credit(db, accountKey(userId), ACCOUNT_RULE);
  await db.deleteFrom('sign_in_throttles').where('key', '=', pairKey(userId, address)).execute();
  await db
    .insertInto('sign_in_throttles')
    .values({ key: knownKey(userId, address), failures: 0, blocked_until: null, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ updated_at: now }))
    .execute();
}
