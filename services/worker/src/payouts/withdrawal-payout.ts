import type { Database } from '@peeks/db';
import { LedgerRuleViolation, type LedgerCommand } from '@peeks/ledger';
import { executeLedgerCommand, loadTransaction, requestedPayoutOf, type LedgerSettings } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { WITHDRAWAL_PAYOUT_QUEUE } from '@peeks/jobs';
import { workEach } from '../job.ts';
import type { PayoutProvider, PayoutRequest } from './payout-provider.ts';

/** The actor the worker's ledger events carry, so an audit tells its steps from an operator's. */
export const PAYOUT_ACTOR = 'worker:withdrawal-payout';

/**
 * The provider's idempotency key for a withdrawal: taken from the
 * transaction, so every run of its job asks for the same payout, and one
 * that died between the payout and the ledger pays nothing the second time.
 */
export const payoutKeyOf = (txId: string) => `withdrawal-${txId}`;

export type PayoutResult = 'processed' | 'failed' | 'left to the operator';

/**
 * Pays a pending withdrawal out and records it: ProcessWithdrawal (the
 * reserved money is burned) when the provider paid, FailWithdrawal (it
 * returns to the wallet) when it refused. A withdrawal that is no longer
 * pending was settled already, by an operator by hand or by an earlier run
 * of this job, and is left alone. A provider that does not answer fails the
 * job, which is retried with the same key.
 */
export async function payOutWithdrawal(
  deps: { db: Kysely<Database>; settings: LedgerSettings; provider: PayoutProvider; log: Logger },
  txId: string,
): Promise<PayoutResult> {
  const { db, settings, provider, log } = deps;
  const tx = await loadTransaction(db, txId);
  if (!tx) throw new Error(`withdrawal ${txId} does not exist`);
  if (tx.type !== 'withdraw') throw new Error(`${txId} is a ${tx.type}, not a withdrawal`);
  if (tx.state !== 'pending') return 'left to the operator';

  const destination = await destinationOf(db, tx.paymentMethodId, tx.paymentMethodType);
  // What the person was told they would get: coins go out as the cash of their quote.
  const cash = await requestedPayoutOf(db, txId);
  const outcome = destination
    ? await provider.payout({
        idempotencyKey: payoutKeyOf(txId),
        destination,
        amount: cash?.amount ?? tx.amount,
        currency: cash?.currency ?? tx.currency,
      })
    : { status: 'failed' as const, reason: 'The payment method has no account to pay out to' };
  const command: LedgerCommand =
    outcome.status === 'paid'
      ? { type: 'ProcessWithdrawal', txId, payoutReference: outcome.payoutId, ...(cash ? { payout: cash } : {}) }
      : { type: 'FailWithdrawal', txId, reason: outcome.reason };
  try {
    await executeLedgerCommand(db, command, settings, { actor: PAYOUT_ACTOR });
  } catch (error) {
    if (!(error instanceof LedgerRuleViolation)) throw error;
    // An operator settled it between our read and our command. When the provider
    // paid and the operator failed it, the money went out twice over: say so loudly.
    const now = await loadTransaction(db, txId);
    if (!now || now.state === 'pending') throw error;
    const level = outcome.status === 'paid' && now.state !== 'completed' ? 'error' : 'warn';
    log[level](
      { txId, provider: outcome, ledgerState: now.state },
      'an operator settled the withdrawal while it was being paid out; reconcile by hand',
    );
    return 'left to the operator';
  }
  return outcome.status === 'paid' ? 'processed' : 'failed';
}

/** Where the withdrawal goes: the card's processor token, or the bank account's number. */
async function destinationOf(
  db: Kysely<Database>,
  paymentMethodId: string | null,
  kind: string | null,
): Promise<PayoutRequest['destination'] | null> {
  if (paymentMethodId === null || !/^\d+$/.test(paymentMethodId)) return null;
  const method = await db
    .selectFrom('payment_methods')
    .select(['type', 'type_specific'])
    .where('payment_method_id', '=', Number(paymentMethodId))
    .executeTakeFirst();
  if (!method) return null;
  const account = method.type === 'CC' ? method.type_specific.token : method.type_specific.account_no;
  if (typeof account !== 'string' || account === '') return null;
  return { kind: kind === 'card' ? 'card' : 'bank', account };
}

export async function runWithdrawalPayouts(
  boss: PgBoss,
  deps: { db: Kysely<Database>; settings: LedgerSettings; provider: PayoutProvider; log: Logger },
): Promise<void> {
  await workEach<{ txId: string }>(boss, WITHDRAWAL_PAYOUT_QUEUE.name, async (job) => {
    const outcome = await payOutWithdrawal(deps, job.data.txId);
    deps.log.info({ txId: job.data.txId, outcome }, 'withdrawal payout');
  });
}
