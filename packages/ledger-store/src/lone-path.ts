import { appendedEvents, StreamVersionConflict, type Database } from '@peeks/db';
import { isFollowUp, isSaleReturn, needsOf, type SaleState } from '@peeks/ledger';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { commitDecisions, isSerializationFailure } from './commit.ts';
import { decideRequest } from './decide.ts';
import { readLedgerState } from './read-state.ts';
import { refusedOutcome, replay } from './replay.ts';
import { loadTransaction, readTransaction } from './transactions.ts';
import type { LedgerOutcome, LedgerRequest } from './types.ts';

/** Decisions against unlocked state before queueing on the wallets' locks instead. */
export const OPTIMISTIC_ATTEMPTS = 3;

/**
 * One command on its own, in two round trips: read (`ledger_state`),
 * decide, commit (`ledger_commit`, which goes ahead only if no wallet
 * changed since the read). When one did, the command is decided again;
 * after a few such collisions (a hot wallet), it runs in a transaction that
 * locks the wallets as it reads them.
 */
export async function executeAlone(db: Kysely<Database>, request: LedgerRequest): Promise<LedgerOutcome> {
  for (let attempts = 1; attempts <= OPTIMISTIC_ATTEMPTS; attempts++) {
    try {
      return await attempt(db, request, { lock: false });
    } catch (error) {
      if (!isSerializationFailure(error)) throw error;
    }
  }
  return db.transaction().execute((trx) => executeLocked(trx, request));
}

/** One command inside the caller's transaction `trx`, locking its wallets as it reads them. */
export function executeLocked(trx: Kysely<Database>, request: LedgerRequest): Promise<LedgerOutcome> {
  return attempt(trx, request, { lock: true });
}

async function attempt(
  db: Kysely<Database>,
  request: LedgerRequest,
  options: { lock: boolean },
): Promise<LedgerOutcome> {
  const { command } = request;
  const existing = isFollowUp(command) ? await readTransaction(db, command.txId) : null;
  // A sale's parties never change, so its stream names the wallets; its sum of returns is read after them (below).
  const sale = isSaleReturn(command) ? await loadTransaction(db, command.saleTxId) : null;
  const cashOutAt = request.settings.now?.() ?? new Date();
  const state = await readLedgerState(db, [needsOf(command, existing?.record ?? sale)], options.lock, cashOutAt);
  const decision = decideRequest(request, state, existing, sale && (await saleState(db, sale)));
  if (decision.refused) return refusedOutcome(db, command, decision.refused);

  const { rows } = await commitDecisions(db, state, [decision]);
  const appended = appendedEvents(decision.prepared, rows);
  if (appended) return { record: decision.record, events: appended.events, replayed: false };

  // The stream moved on since the read: another call wrote this transaction.
  if (isFollowUp(command))
    throw new StreamVersionConflict(decision.prepared.streamId, existing?.head.version ?? 0, null);
  const first = await replay(db, command.txId);
  if (!first) throw new Error(`transaction ${command.txId} conflicted but cannot be read`);
  return first;
}

/**
 * The sale with what its standing returns gave back so far (a return whose
 * card refund failed is no longer counted), and what their card refunds came
 * to, read after its wallets: a return committed before that read is
 * counted, and one committed after it, or a refund failed after it, moved the
 * merchant's wallet, which the commit then finds changed. Under lock (the
 * caller's transaction) no return of it can commit meanwhile.
 */
async function saleState(db: Kysely<Database>, record: SaleState['record']): Promise<SaleState> {
  const { rows } = await sql<{ returned: number; cardRefunded: number }>`
    SELECT s.returned_amount AS returned, (
      SELECT coalesce(sum((e.data->'cardRefund'->>'amount')::bigint), 0)::bigint
      -- A return's first event (its stream is transactionStream's 'ledger-' and its id) holds its card refund.
      FROM ledger_transactions r JOIN events e ON e.stream_id = 'ledger-' || r.tx_id AND e.stream_version = 1
      WHERE r.parent_tx_id = s.tx_id AND r.type = 'return' AND r.state <> 'failed'
    ) AS "cardRefunded"
    FROM ledger_transactions s WHERE s.tx_id = ${record.txId}
  `.execute(db);
  const [row] = rows;
  return { record, returned: row?.returned ?? 0, cardRefunded: row?.cardRefunded ?? 0 };
}
