import type { Database } from '@peeks/db';
import type { LedgerJobs } from '@peeks/ledger-store';
import { queueEmail } from '@peeks/jobs';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { transaction } from '../../plugins/after-commit.ts';
import { endOtherSessions, type SessionCache } from '../../plugins/sessions.ts';
import { hashRecoveryCode, recoveryCodeExpiry } from './recovery-code.ts';
import { RECOVERY_CODE_LIFETIME_MS, RECOVERY_CODE_TRIES } from '@peeks/contracts';

/** The account a recovery names, by username in any letter case. */
export function findRecoveryAccount(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['user_id', 'username', 'email', 'account_status', 'is_banned'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

/** The user's latest code: sending a new one makes every older one worthless. */
export function latestRecoveryCode(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('password_recovery_codes')
    .select(['recovery_id', 'code_salt', 'code_hash', 'attempts', 'expires_at', 'checked_at', 'used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('recovery_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type RecoveryCodeRow = NonNullable<Awaited<ReturnType<typeof latestRecoveryCode>>>;

/** Codes sent to one account in an hour, from whatever addresses: enough for its owner, too few to flood the inbox or guess. */
export const RECOVERY_SENDS_PER_HOUR = 5;

/**
 * Stores the code's hash and queues the e-mail that carries the code itself,
 * together; false, and nothing sent, when the account had its
 * RECOVERY_SENDS_PER_HOUR codes in the last hour already (the user's row is
 * locked while counting, so concurrent sends do not pass the cap together).
 */
export async function issueRecoveryCode(
  db: Kysely<Database>,
  jobs: Pick<LedgerJobs, 'enqueue'>,
  account: { user_id: number; username: string; email: string },
  code: string,
  now: Date,
): Promise<boolean> {
  const { salt, hash } = hashRecoveryCode(code);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('user_id').where('user_id', '=', account.user_id).forUpdate().execute();
    const { sent } = await trx
      .selectFrom('password_recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('sent'))
      .where('user_id', '=', account.user_id)
      .where('created_at', '>', new Date(now.getTime() - 60 * 60_000))
      .executeTakeFirstOrThrow();
    if (Number(sent) >= RECOVERY_SENDS_PER_HOUR) return false;
    await trx
      .insertInto('password_recovery_codes')
      .values({
        user_id: account.user_id,
        code_salt: salt,
        code_hash: hash,
        created_at: now,
        expires_at: recoveryCodeExpiry(now),
        checked_at: null,
        used_at: null,
      })
      .execute();
    await queueEmail(
      trx,
      jobs,
      {
        recipient: account.email,
        template: 'password-recovery-code',
        subject: 'Your Peeks Wallet recovery code',
        payload: {
          username: account.username,
          recovery_code: code,
          expires_in_minutes: RECOVERY_CODE_LIFETIME_MS / 60_000,
        },
      },
      now,
    );
    return true;
  });
}

/**
 * Counts a wrong try. False when the tries were already used up, so many
 * guesses sent at once still get 5 between them.
 */
export async function spendRecoveryTry(db: Kysely<Database>, recoveryId: number): Promise<boolean> {
  const row = await db
    .updateTable('password_recovery_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('recovery_id', '=', recoveryId)
    .where('attempts', '<', RECOVERY_CODE_TRIES)
    .returning('attempts')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Re-checked in the statement that uses the code, so a code that ran out of
 * time or tries (or was spent) after it was read is not used.
 */
function stillUsable(eb: ExpressionBuilder<Database, 'password_recovery_codes'>, now: Date) {
  return eb.and([eb('used_at', 'is', null), eb('expires_at', '>', now), eb('attempts', '<', RECOVERY_CODE_TRIES)]);
}

/** Step 3 passed; false if the code stopped being usable meanwhile (spent, expired, out of tries). */
export async function markRecoveryCodeChecked(db: Kysely<Database>, recoveryId: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('password_recovery_codes')
    .set({ checked_at: now })
    .where('recovery_id', '=', recoveryId)
    .where((eb) => stillUsable(eb, now))
    .returning('recovery_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Spends the checked code, sets the new password and ends every session of
 * the user but `keepSession`, in one transaction. False when the code was
 * spent by a reset running at the same time.
 */
export async function resetPasswordWithCode(
  db: Kysely<Database>,
  sessions: SessionCache,
  reset: { userId: number; recoveryId: number; passwordHash: string; keepSession: Buffer | null },
  now: Date,
): Promise<boolean> {
  return transaction(db, async (trx) => {
    const spent = await trx
      .updateTable('password_recovery_codes')
      .set({ used_at: now })
      .where('recovery_id', '=', reset.recoveryId)
      .where('checked_at', 'is not', null)
      .where((eb) => stillUsable(eb, now))
      .returning('recovery_id')
      .executeTakeFirst();
    if (!spent) return false;
    await trx
      .updateTable('users')
      .set({ password_hash: reset.passwordHash, updated_at: now })
      .where('user_id', '=', reset.userId)
      .execute();
    await endOtherSessions(trx, sessions, reset.userId, reset.keepSession);
    return true;
  });
}
