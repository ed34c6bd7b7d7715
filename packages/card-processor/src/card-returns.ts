import { readStream, StreamVersionConflict, type Database } from '@peeks/db';
import {
  LedgerRuleViolation,
  transactionStream,
  type LedgerCommand,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import { executeLedgerCommand, loadTransaction, type LedgerSettings } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { CardProcessorUnavailable, type CardCharges, type PartRefundOutcome } from './card-charges.ts';
import { chargeKeyFor } from './charge-key.ts';

export interface CardReturnDeps {
  db: Kysely<Database>;
  cardCharges: CardCharges;
  ledgerSettings: LedgerSettings;
  clock: () => Date;
  log: Pick<Logger, 'error' | 'warn' | 'info'>;
}

/** A transaction's first event: how a sale was paid, or what a return gives back. */
export async function firstEvent(db: Kysely<Database>, txId: string): Promise<TransactionEvent | undefined> {
  const [first] = await readStream(db, transactionStream(txId), { maxCount: 1 });
  return first as unknown as TransactionEvent | undefined;
}

/** What the sale's charge key may be derived from: a checkout's per-card reference, else the sale's own id. */
const chargeReferencesOf = (sale: TransactionRecord) => [`${sale.txId}:card-${sale.paymentMethodId ?? ''}`, sale.txId];

/**
 * Steps 2 and 3 of a card-paid return (see the API's returnSale): the
 * processor's refund, keyed by the return's transaction id so asking again
 * gets the same refund, then ConfirmCardRefund, once. Safe to run again, in
 * any process, at any time: a return already completed (or failed) comes
 * back as it is. The processor not answering throws
 * CardProcessorUnavailable; the return stays pending for the next try. The
 * processor refusing the refund (a 4xx: more than is left of the charge),
 * or knowing no charge, is for good: FailCardRefund gives the money back
 * to the merchant and the return ends 'failed', for finance to look into.
 */
export async function finishCardReturn(
  deps: CardReturnDeps,
  returnTxId: string,
  requestId?: string,
): Promise<TransactionRecord | null> {
  const pending = await loadTransaction(deps.db, returnTxId);
  if (pending?.type !== 'return' || pending.state !== 'pending' || !pending.parentTxId) return pending;
  const sale = await loadTransaction(deps.db, pending.parentTxId);
  if (!sale) return pending;
  const event = await firstEvent(deps.db, pending.txId);
  const refund = event?.type === 'SaleReturned' ? event.data.cardRefund : null;
  if (!refund) throw new Error(`return ${pending.txId} is pending with no card refund`);
  let answer: PartRefundOutcome = 'no-charge';
  for (const reference of chargeReferencesOf(sale)) {
    const chargeKey = await chargeKeyFor(deps, reference);
    answer = await deps.cardCharges.refundPart({ chargeKey, refundKey: pending.txId, amount: refund.amount });
    if (answer !== 'no-charge') break;
  }
  const command = afterRefund(pending.txId, answer);
  // Finance settles a refused refund with the processor; it finds it by this line and the return's 'failed' state.
  if (command.type === 'FailCardRefund')
    deps.log.error(
      { txId: pending.txId, saleTxId: sale.txId, reason: command.reason },
      'card refund refused for a return',
    );
  try {
    const { record } = await executeLedgerCommand(deps.db, command, deps.ledgerSettings, {
      actor: pending.payerOwnerId,
      ...(requestId === undefined ? {} : { requestId }),
    });
    return record;
  } catch (error) {
    // Another try (a retried request, a worker) confirmed or failed it first.
    const raced =
      error instanceof StreamVersionConflict ||
      (error instanceof LedgerRuleViolation && error.code === 'transaction_state_invalid');
    if (raced) {
      const current = await loadTransaction(deps.db, pending.txId);
      if (current?.state === 'completed' || current?.state === 'failed') return current;
    }
    throw error;
  }
}

/** What the processor's answer makes of a pending return: confirmed, or failed for good. */
function afterRefund(txId: string, answer: PartRefundOutcome): LedgerCommand {
  if (answer === 'no-charge')
    return { type: 'FailCardRefund', txId, reason: 'the processor knows no charge for the sale' };
  if ('refused' in answer) return { type: 'FailCardRefund', txId, reason: answer.refused };
  return { type: 'ConfirmCardRefund', txId, refundReference: answer.refundId };
}

/**
 * Card-paid returns still pending `olderThanMs` after they were asked for:
 * the request that began them died or timed out, and nobody retried it.
 * Oldest first, at most `limit`; not the ones flagged for finance.
 */
export async function stalledCardReturns(
  db: Kysely<Database>,
  now: Date,
  olderThanMs: number,
  limit: number,
): Promise<{ txId: string; pendingSince: Date }[]> {
  const rows = await db
    .selectFrom('ledger_transactions')
    .select(['tx_id', 'updated_at'])
    .where('type', '=', 'return')
    .where('state', '=', 'pending')
    .where('updated_at', '<', new Date(now.getTime() - olderThanMs))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('card_return_flags')
            .select('tx_id')
            .whereRef('card_return_flags.tx_id', '=', 'ledger_transactions.tx_id'),
        ),
      ),
    )
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ txId: row.tx_id, pendingSince: row.updated_at }));
}

/** A return still pending this long was left by its request: a live request finishes in seconds. */
export const STALLED_AFTER_MS = 2 * 60_000;
/** A return the processor has not answered for this long goes to finance instead of being asked again. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Returns finished per run; the next minute's run takes the rest. */
const PER_RUN = 50;

/**
 * Finishes card-paid returns that are pending past STALLED_AFTER_MS: the
 * request that began them died or timed out between the ledger and the
 * processor, and the merchant never retried. Every step is keyed by the
 * return, so a merchant retrying at the same time, or two workers, refund
 * the card once. A processor that refuses ends the return 'failed'
 * (finishCardReturn). One that does not answer leaves the rest for the
 * next run, until GIVE_UP_AFTER_MS: then nobody knows whether the card got
 * its refund, so the return is flagged for finance (card_return_flags) and
 * left pending, never asked for again and again.
 */
export async function retryStalledCardReturns(
  deps: CardReturnDeps,
): Promise<{ finished: number; failed: number; flagged: number; stillPending: number }> {
  const now = deps.clock();
  const stalled = await stalledCardReturns(deps.db, now, STALLED_AFTER_MS, PER_RUN);
  let finished = 0;
  let failed = 0;
  let flagged = 0;
  for (const { txId, pendingSince } of stalled) {
    try {
      const record = await finishCardReturn(deps, txId);
      if (record?.state === 'completed') finished += 1;
      if (record?.state === 'failed') failed += 1;
    } catch (error) {
      const reason = error instanceof CardProcessorUnavailable ? error.reason : String(error);
      if (now.getTime() - pendingSince.getTime() > GIVE_UP_AFTER_MS) {
        await flagForFinance(deps, txId, reason, now);
        flagged += 1;
        continue;
      }
      if (error instanceof CardProcessorUnavailable) {
        deps.log.warn({ txId, reason }, 'card return left pending: the processor is not answering');
        break;
      }
      // One return that cannot finish must not hold up the ones behind it; finance finds it by this line.
      deps.log.error({ txId, err: error }, 'card return could not be finished');
    }
  }
  return { finished, failed, flagged, stillPending: stalled.length - finished - failed - flagged };
}

/** Once per return: the retry stops asking, and finance finds it by the row and this line. */
async function flagForFinance(deps: CardReturnDeps, txId: string, reason: string, now: Date): Promise<void> {
  await deps.db
    .insertInto('card_return_flags')
    .values({ tx_id: txId, flagged_at: now, reason })
    .onConflict((conflict) => conflict.column('tx_id').doNothing())
    .execute();
  deps.log.error({ txId, reason }, 'card return flagged for an operator: the processor never answered');
}
