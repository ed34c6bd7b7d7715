import { errorCodes, type CorrectionRequest } from '@peeks/contracts';
import { appendToStream, type CorrectionRequestsTable, type Database, type EventMetadata } from '@peeks/db';
import { ownerOf, type Currency, type TransactionRecord } from '@peeks/ledger';
import { executeLedgerCommand, walletsOf, type LedgerSettings } from '@peeks/ledger-store';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { randomBytes } from 'node:crypto';
import { refuse } from '../../plugins/error-envelope.ts';

/**
 * Four eyes for balance corrections. One call moves at most `maxMinor`
 * minor units; above `approvalMinor` a correction is not posted but
 * requested, and posted only when a second, different finance operator
 * approves it. The request and the decision are events with their actors
 * on the stream `correction-<id>`; `correction_requests` is their read
 * model, and its row lock makes a decision happen once.
 */
export interface CorrectionLimits {
  /** CORRECTION_MAX_MINOR: the most one correction may move, either way. */
  maxMinor: number;
  /** CORRECTION_APPROVAL_MINOR: corrections moving more than this wait for a second operator. */
  approvalMinor: number;
}

/** The defaults of CORRECTION_MAX_MINOR and CORRECTION_APPROVAL_MINOR (runtime/config.ts), for apps built without them. */
export const defaultCorrectionLimits: CorrectionLimits = { maxMinor: 100_000_000, approvalMinor: 1_000_000 };

/** The stream of one correction request's events. */
export const correctionStream = (correctionId: string) => `correction-${correctionId}`;

/** The ledger transaction an approval posts: one per request, so a second post is a replay, never a second credit. */
export const correctionTransactionId = (correctionId: string) => `${correctionId}-posted`;

/** How a correction of `amount` goes: refused above the cap, posted at once, or left for a second operator. */
export function correctionRoute(amount: number, limits: CorrectionLimits): 'over-cap' | 'post' | 'approval' {
  const size = Math.abs(amount);
  if (size > limits.maxMinor) return 'over-cap';
  return size > limits.approvalMinor ? 'approval' : 'post';
}

export const overCap = (limits: CorrectionLimits) =>
  refuse(422, errorCodes.correctionOverCap, {
    field: 'amount',
    message: `The correction is over the most one correction may move (${String(limits.maxMinor)} minor units)`,
  });

const inTransaction = <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<Database>) => work(trx));

type Row = Selectable<CorrectionRequestsTable>;

/** Rows as the console shows them, with the operators' usernames. */
export async function correctionViews(db: Kysely<Database>, rows: readonly Row[]): Promise<CorrectionRequest[]> {
  const operatorIds = [
    ...new Set(
      rows
        .flatMap((row) => [row.requested_by, row.decided_by])
        .map((id) => (id === null ? null : ownerOf(id)))
        .filter((owner) => owner?.kind === 'user')
        .map((owner) => owner?.id ?? 0),
    ),
  ];
  const users =
    operatorIds.length === 0
      ? []
      : await db.selectFrom('users').select(['user_id', 'username']).where('user_id', 'in', operatorIds).execute();
  const usernameOf = (ownerId: string | null) => {
    const owner = ownerId === null ? null : ownerOf(ownerId);
    return users.find((user) => owner?.kind === 'user' && user.user_id === owner.id)?.username ?? null;
  };
  return rows.map((row) => {
    const owner = ownerOf(row.owner_id);
    return {
      correction_id: row.correction_id,
      state: row.state,
      owner_id: row.owner_id,
      user_id: owner?.kind === 'user' ? owner.id : null,
      merchant_id: owner?.kind === 'merchant' ? owner.id : null,
      currency: row.currency as Currency,
      amount: row.amount,
      reason: row.reason,
      requested_by: row.requested_by,
      requested_by_username: usernameOf(row.requested_by),
      requested_at: row.requested_at.toISOString(),
      decided_by: row.decided_by,
      decided_by_username: usernameOf(row.decided_by),
      decided_at: row.decided_at?.toISOString() ?? null,
      decision_reason: row.decision_reason,
      tx_id: row.tx_id,
    };
  });
}

/** The corrections waiting for a second operator, oldest first. */
export async function pendingCorrections(db: Kysely<Database>, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('correction_requests')
      .selectAll()
      .where('state', '=', 'pending')
      .orderBy('requested_at')
      .orderBy('correction_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('correction_requests')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  return { corrections: await correctionViews(db, rows), total: Number(count.total) };
}

export interface CorrectionAsked {
  ownerId: string;
  currency: Currency;
  amount: number;
  reason: string;
  /** The requesting operator's ledger owner id. */
  operator: string;
  metadata: Partial<EventMetadata>;
  now: Date;
}

/**
 * Records a correction for a second operator to decide: the
 * CorrectionRequested event and its row, in one transaction. Nothing is
 * posted. A wallet that is not there is 404, as a posted correction's is.
 */
export async function requestCorrection(db: Kysely<Database>, asked: CorrectionAsked): Promise<CorrectionRequest> {
  return inTransaction(db, async (trx) => {
    const wallets = await walletsOf(trx, asked.ownerId);
    const wallet = wallets.find((each) => each.currency === asked.currency);
    if (!wallet)
      throw refuse(404, errorCodes.walletNotFound, {
        field: ownerOf(asked.ownerId)?.kind === 'merchant' ? 'merchant_id' : 'user_id',
      });
    // An overdraw is refused when asked, as a posted correction's is, not left for the approver to find; the
    // approval checks again, since the balance may have moved in between.
    if (wallet.available + asked.amount < 0) throw refuse(422, errorCodes.insufficientFunds, { field: 'amount' });
    const correctionId = `corr_${randomBytes(16).toString('hex')}`;
    await appendToStream(
      trx,
      correctionStream(correctionId),
      [
        {
          type: 'CorrectionRequested',
          data: {
            correctionId,
            ownerId: asked.ownerId,
            currency: asked.currency,
            amount: asked.amount,
            reason: asked.reason,
            requestedBy: asked.operator,
          },
        },
      ],
      { expectedVersion: 0, metadata: { ...asked.metadata, actor: asked.operator }, now: () => asked.now },
    );
    const row = await trx
      .insertInto('correction_requests')
      .values({
        correction_id: correctionId,
        owner_id: asked.ownerId,
        currency: asked.currency,
        amount: asked.amount,
        reason: asked.reason,
        requested_by: asked.operator,
        requested_at: asked.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [view] = await correctionViews(trx, [row]);
    if (!view) throw new Error(`correction ${correctionId} has no view`);
    return view;
  });
}

export interface CorrectionDecision {
  correctionId: string;
  decision: 'approve' | 'reject';
  /** Why it was rejected; null for an approval. */
  reason: string | null;
  /** The deciding operator's ledger owner id: never the one who asked. */
  operator: string;
  settings: LedgerSettings;
  metadata: Partial<EventMetadata>;
  now: Date;
}

/**
 * Approves (posts) or rejects a pending correction in one database
 * transaction: the request's row is locked first, so two operators racing
 * decide it once, the second finding it decided (422). The ledger's
 * CorrectBalance (for an approval), the decision event and the row's
 * decision commit together: a crash leaves all of it or none, and the
 * correction still pending. The operator who asked may not decide (403).
 */
export async function decideCorrection(
  db: Kysely<Database>,
  decision: CorrectionDecision,
): Promise<{ correction: CorrectionRequest; record: TransactionRecord | null }> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('correction_requests')
      .selectAll()
      .where('correction_id', '=', decision.correctionId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw refuse(404, errorCodes.correctionNotFound, { field: 'correction_id' });
    if (row.requested_by === decision.operator)
      throw refuse(403, errorCodes.correctionOwnApproval, { field: 'correction_id' });
    if (row.state !== 'pending') throw refuse(422, errorCodes.correctionDecided, { field: 'correction_id' });

    const metadata = { ...decision.metadata, actor: decision.operator };
    let record: TransactionRecord | null = null;
    if (decision.decision === 'approve') {
      const posted = await executeLedgerCommand(
        trx,
        {
          type: 'CorrectBalance',
          txId: correctionTransactionId(row.correction_id),
          ownerId: row.owner_id,
          amount: row.amount,
          currency: row.currency as Currency,
          reason: row.reason,
          operatorId: decision.operator,
        },
        decision.settings,
        metadata,
      );
      record = posted.record;
    }
    await appendToStream(
      trx,
      correctionStream(row.correction_id),
      [
        decision.decision === 'approve'
          ? {
              type: 'CorrectionApproved',
              data: { correctionId: row.correction_id, approvedBy: decision.operator, txId: record?.txId ?? null },
            }
          : {
              type: 'CorrectionRejected',
              data: { correctionId: row.correction_id, rejectedBy: decision.operator, reason: decision.reason },
            },
      ],
      { expectedVersion: 1, metadata, now: () => decision.now },
    );
    const decided = await trx
      .updateTable('correction_requests')
      .set({
        state: decision.decision === 'approve' ? 'approved' : 'rejected',
        decided_by: decision.operator,
        decided_at: decision.now,
        decision_reason: decision.reason,
        tx_id: record?.txId ?? null,
      })
      .where('correction_id', '=', row.correction_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const [correction] = await correctionViews(trx, [decided]);
    if (!correction) throw new Error(`correction ${row.correction_id} has no view`);
    return { correction, record };
  });
}
