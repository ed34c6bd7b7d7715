import { appendToStream, type Database, type EventMetadata } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import { transaction } from '../../plugins/after-commit.ts';
import { forgetOnCommit, type SessionCache } from '../../plugins/sessions.ts';

/** Support's actions on one user's account: their events, each with the operator as actor. */
export const accountStream = (userId: number) => `account-${userId}`;

interface ActionContext {
  reason: string;
  /** The operator's owner id, the request id and address: the events' metadata. */
  metadata: Partial<EventMetadata> & { actor: string };
  now: Date;
}

/** `work` in a transaction: `db`'s own when it is one (an approval's), else a new one. */
export const inTransaction = <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : transaction(db, work);

/** The id the console shows for a session: the first 12 bytes of its key, hex, which cannot be used to sign in. */
const sessionIdOf = sql<string>`encode(substring(session_key from 1 for 12), 'hex')`;

/**
 * Ends one of `userId`'s sessions, named by the id the person view shows;
 * false when they have no such session (already signed out, or never theirs).
 * Once that commits, `sessions` forgets it.
 */
export async function revokeSession(
  db: Kysely<Database>,
  sessions: SessionCache,
  userId: number,
  sessionId: string,
  context: ActionContext,
): Promise<boolean> {
  return transaction(db, async (trx) => {
    const ended = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where(sessionIdOf, '=', sessionId)
      .returning('user_id')
      .execute();
    if (ended.length === 0) return false;
    forgetOnCommit(trx, sessions, userId);
    await appendToStream(
      trx,
      accountStream(userId),
      [{ type: 'SessionRevoked', data: { userId, sessionId, reason: context.reason } }],
      { expectedVersion: 'any', metadata: context.metadata, now: () => context.now },
    );
    return true;
  });
}

/**
 * Bans or unbans `userId`. A ban also ends every session of theirs in the
 * same transaction, so no request of theirs gets through after the answer.
 * Asking for what is already so changes nothing and writes no event, so a
 * double click or a retry is harmless. A finance operator's ban comes
 * here only once a second operator approved it (ban-requests.ts). Once
 * the ban commits, `sessions` forgets the sessions it ended.
 */
export async function setBanned(
  db: Kysely<Database>,
  sessions: SessionCache,
  userId: number,
  banned: boolean,
  context: ActionContext,
): Promise<'changed' | 'unchanged' | 'not-found'> {
  return inTransaction(db, async (trx) => {
    const changed = await trx
      .updateTable('users')
      .set({ is_banned: banned, updated_at: context.now })
      .where('user_id', '=', userId)
      .where('is_banned', '=', !banned)
      .returning('user_id')
      .execute();
    if (changed.length === 0) {
      const exists = await trx.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      return exists ? 'unchanged' : 'not-found';
    }
    const sessionsEnded = banned
      ? Number((await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst()).numDeletedRows)
      : 0;
    if (banned) forgetOnCommit(trx, sessions, userId);
    await appendToStream(
      trx,
      accountStream(userId),
      [
        banned
          ? { type: 'AccountBanned', data: { userId, reason: context.reason, sessionsEnded } }
          : { type: 'AccountUnbanned', data: { userId, reason: context.reason } },
      ],
      { expectedVersion: 'any', metadata: context.metadata, now: () => context.now },
    );
    return 'changed';
  });
}
