import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';

/**
 * Per-account sign-in throttling, after the OWASP authentication cheat
 * sheet: wrong passwords are counted per account (whatever the address) and
 * per account and address, and past a few free tries each further one must
 * wait a doubling delay, capped. A lock answers 429 before the password is
 * even checked, so guesses spread over many addresses stop too. The
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

/** Milliseconds before `address` may try a password for `userId` again; 0 when it may now. */
export async function signInWait(db: Kysely<Database>, userId: number, address: string, now: Date): Promise<number> {
  const rows = await db
    .selectFrom('sign_in_throttles')
    .select(['key', 'blocked_until'])
    .where('key', 'in', [accountKey(userId), pairKey(userId, address), knownKey(userId, address)])
    .execute();
  const known = rows.some((row) => row.key === knownKey(userId, address));
  const waits = rows
    .filter((row) => row.key !== knownKey(userId, address) && !(known && row.key === accountKey(userId)))
    .map((row) => (row.blocked_until ? row.blocked_until.getTime() - now.getTime() : 0));
  return Math.max(0, ...waits);
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

/** A wrong password for `userId` from `address`. */
export async function signInFailed(db: Kysely<Database>, userId: number, address: string, now: Date): Promise<void> {
  await countFailure(db, accountKey(userId), ACCOUNT_RULE, now);
  await countFailure(db, pairKey(userId, address), ADDRESS_RULE, now);
}

/** The right password: the address's count is forgotten and the address known from now on. */
export async function signInSucceeded(db: Kysely<Database>, userId: number, address: string, now: Date): Promise<void> {
  await db.deleteFrom('sign_in_throttles').where('key', '=', pairKey(userId, address)).execute();
  await db
    .insertInto('sign_in_throttles')
    .values({ key: knownKey(userId, address), failures: 0, blocked_until: null, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ updated_at: now }))
    .execute();
}
