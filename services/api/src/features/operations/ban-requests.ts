import { errorCodes, FINANCE_OPERATOR_ROLE, type BanRequest } from '@peeks/contracts';
import { appendToStream, type BanRequestsTable, type Database, type EventMetadata } from '@peeks/db';
import { ownerOf } from '@peeks/ledger';
import type { Kysely, Selectable } from 'kysely';
import { randomBytes } from 'node:crypto';
import { refuse } from '../../plugins/error-envelope.ts';
import type { SessionCache } from '../../plugins/sessions.ts';
import { inTransaction, setBanned } from './account-actions.ts';

/**
 * Four eyes for banning a finance operator, as for large corrections: one
 * operator alone could otherwise lock another out and end their sessions,
 * hiding what they were looking at. Banning anyone else stays one step. A
 * ban of an operator is only requested; a second, different operator
 * approves it (the ban and the end of every session happen then, in the
 * approval's transaction) or rejects it. The request and the decision are
 * events with their actors on the stream `ban-<id>`; `ban_requests` is
 * their read model, and its row lock makes a decision happen once.
 */

/** The stream of one ban request's events. */
export const banStream = (banId: string) => `ban-${banId}`;

type Row = Selectable<BanRequestsTable>;

/** Rows as the console shows them, with the banned user's and the operators' usernames. */
async function banViews(db: Kysely<Database>, rows: readonly Row[]): Promise<BanRequest[]> {
  const operatorIds = rows
    .flatMap((row) => [row.requested_by, row.decided_by])
    .map((id) => (id === null ? null : ownerOf(id)))
    .flatMap((owner) => (owner?.kind === 'user' ? [owner.id] : []));
  const ids = [...new Set([...operatorIds, ...rows.map((row) => row.user_id)])];
  const users =
    ids.length === 0
      ? []
      : await db.selectFrom('users').select(['user_id', 'username']).where('user_id', 'in', ids).execute();
  const usernameOf = (userId: number | undefined) => users.find((user) => user.user_id === userId)?.username ?? null;
  const operatorName = (ownerId: string | null) => {
    const owner = ownerId === null ? null : ownerOf(ownerId);
    return owner?.kind === 'user' ? usernameOf(owner.id) : null;
  };
  return rows.map((row) => ({
    ban_id: row.ban_id,
    state: row.state,
    user_id: row.user_id,
    username: usernameOf(row.user_id) ?? '',
    reason: row.reason,
    requested_by: row.requested_by,
    requested_by_username: operatorName(row.requested_by),
    requested_at: row.requested_at.toISOString(),
    decided_by: row.decided_by,
    decided_by_username: operatorName(row.decided_by),
    decided_at: row.decided_at?.toISOString() ?? null,
    decision_reason: row.decision_reason,
  }));
}

async function viewOf(db: Kysely<Database>, row: Row): Promise<BanRequest> {
  const [view] = await banViews(db, [row]);
  if (!view) throw new Error(`ban request ${row.ban_id} has no view`);
  return view;
}

/** The bans of operators waiting for a second operator, oldest first. */
export async function pendingBans(db: Kysely<Database>, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('ban_requests')
      .selectAll()
      .where('state', '=', 'pending')
      .orderBy('requested_at')
      .orderBy('ban_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('ban_requests')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  return { bans: await banViews(db, rows), total: Number(count.total) };
}

export interface BanAsked {
  userId: number;
  reason: string;
  /** The asking operator's ledger owner id. */
  operator: string;
  metadata: Partial<EventMetadata>;
  now: Date;
}

/**
 * An operator's ban of `userId`: done at once for anyone but a finance
 * operator (as `setBanned` does it), requested for an operator. The user's
 * row is locked first, so a promotion or a second ban racing this one is
 * seen. An operator already banned is 'unchanged'; one with a ban already
 * waiting gets that request back, so a double click asks once.
 */
export async function banOrRequest(
  db: Kysely<Database>,
  sessions: SessionCache,
  asked: BanAsked,
): Promise<{ outcome: 'changed' | 'unchanged' | 'not-found' } | { outcome: 'requested'; ban: BanRequest }> {
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['role', 'is_banned'])
      .where('user_id', '=', asked.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return { outcome: 'not-found' };
    const metadata = { ...asked.metadata, actor: asked.operator };
    if (user.role !== FINANCE_OPERATOR_ROLE || user.is_banned)
      return {
        outcome: await setBanned(trx, sessions, asked.userId, true, { reason: asked.reason, metadata, now: asked.now }),
      };

    const waiting = await trx
      .selectFrom('ban_requests')
      .selectAll()
      .where('user_id', '=', asked.userId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (waiting) return { outcome: 'requested', ban: await viewOf(trx, waiting) };

    const banId = `ban_${randomBytes(16).toString('hex')}`;
    await appendToStream(
      trx,
      banStream(banId),
      [
        {
          type: 'BanRequested',
          data: { banId, userId: asked.userId, reason: asked.reason, requestedBy: asked.operator },
        },
      ],
      { expectedVersion: 0, metadata, now: () => asked.now },
    );
    const row = await trx
      .insertInto('ban_requests')
      .values({
        ban_id: banId,
        user_id: asked.userId,
        reason: asked.reason,
        requested_by: asked.operator,
        requested_at: asked.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { outcome: 'requested', ban: await viewOf(trx, row) };
  });
}

export interface BanDecision {
  banId: string;
  decision: 'approve' | 'reject';
  /** Why it was rejected; null for an approval. */
  reason: string | null;
  /** The deciding operator's ledger owner id: never the one who asked, nor the one to be banned. */
  operator: string;
  metadata: Partial<EventMetadata>;
  now: Date;
}

/**
 * Approves (bans, ending every session) or rejects a pending ban in one
 * database transaction: the request's row is locked first, so two
 * operators racing decide it once, the second finding it decided (422).
 * The ban, the decision event and the row's decision commit together. The
 * operator who asked may not decide (403), nor may the operator to be
 * banned approve their own ban (422, as banning oneself is).
 */
export async function decideBan(
  db: Kysely<Database>,
  sessions: SessionCache,
  decision: BanDecision,
): Promise<BanRequest> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('ban_requests')
      .selectAll()
      .where('ban_id', '=', decision.banId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw refuse(404, errorCodes.banRequestNotFound, { field: 'ban_id' });
    if (row.requested_by === decision.operator) throw refuse(403, errorCodes.banOwnApproval, { field: 'ban_id' });
    if (row.state !== 'pending') throw refuse(422, errorCodes.banDecided, { field: 'ban_id' });
    const approve = decision.decision === 'approve';
    const banned = ownerOf(decision.operator);
    if (approve && banned?.kind === 'user' && banned.id === row.user_id)
      throw refuse(422, errorCodes.banSelf, { field: 'ban_id' });

    const metadata = { ...decision.metadata, actor: decision.operator };
    if (approve) await setBanned(trx, sessions, row.user_id, true, { reason: row.reason, metadata, now: decision.now });
    await appendToStream(
      trx,
      banStream(row.ban_id),
      [
        approve
          ? { type: 'BanApproved', data: { banId: row.ban_id, userId: row.user_id, approvedBy: decision.operator } }
          : {
              type: 'BanRejected',
              data: { banId: row.ban_id, userId: row.user_id, rejectedBy: decision.operator, reason: decision.reason },
            },
      ],
      { expectedVersion: 1, metadata, now: () => decision.now },
    );
    const decided = await trx
      .updateTable('ban_requests')
      .set({
        state: approve ? 'approved' : 'rejected',
        decided_by: decision.operator,
        decided_at: decision.now,
        decision_reason: decision.reason,
      })
      .where('ban_id', '=', row.ban_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return viewOf(trx, decided);
  });
}
