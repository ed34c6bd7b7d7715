import type { BitcoinDepositsTable, BitcoinWatchState, Database } from '@peeks/db';
import {
  executeLedgerCommand,
  loadTransaction,
  type LedgerJob,
  type LedgerJobs,
  type LedgerSettings,
} from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely, Selectable } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { BITCOIN_DEPOSIT_EXPIRY_QUEUE, BITCOIN_WATCH_QUEUE, bitcoinDepositExpiryJob, jobId } from '@peeks/jobs';
import { workEach } from '../job.ts';
import type { Esplora } from './esplora.ts';
import { judgePayments, watchStateWith, type Verdict } from './payments.ts';

type BitcoinDeposit = Selectable<BitcoinDepositsTable>;

/** The actor of the watcher's ledger events, so an audit tells them from an operator's. */
export const BITCOIN_WATCHER_ACTOR = 'worker:bitcoin-watcher';

/**
 * How long after its expiry a deposit's address is still watched, for late
 * payments (flagged) and payments to an address already paid. Each watched
 * address costs one Esplora call per poll.
 */
export const LATE_PAYMENT_WATCH_MS = 7 * 24 * 3_600_000;

/** Addresses asked about at once in a poll. */
const POLL_CONCURRENCY = 4;

export interface BitcoinWatchDeps {
  db: Kysely<Database>;
  settings: LedgerSettings;
  /** Null without BITCOIN_ESPLORA_URL: nothing is watched, and unpaid deposits expire. */
  esplora: Esplora | null;
  /** BITCOIN_CONFIRMATIONS. */
  confirmations: number;
  now: () => Date;
  log: Logger;
}

/** A deposit's new state after a look at its address, or 'unchanged' when the look changed nothing. */
export type WatchOutcome = BitcoinWatchState | 'unchanged';

/**
 * Looks at a deposit's address and applies what the payment rule makes of
 * it. The deposit's row is locked while the rule is applied, and the ledger
 * step (ClearDeposit, ExpireDeposit) and the row's new state commit together:
 * whichever worker, poll or expiry job comes second sees the first one's
 * result, and a worker killed half-way leaves neither. So a deposit is
 * credited once however often it is looked at.
 */
export async function watchDeposit(deps: BitcoinWatchDeps, txId: string, tipHeight?: number): Promise<WatchOutcome> {
  const { db, esplora } = deps;
  const deposit = await db.selectFrom('bitcoin_deposits').selectAll().where('tx_id', '=', txId).executeTakeFirst();
  if (!deposit) throw new Error(`bitcoin deposit ${txId} does not exist`);
  // Without Esplora nothing is known of payments: only an unpaid deposit may expire.
  if (!esplora && deposit.watch_state !== 'pending') return 'unchanged';
  const payments = esplora ? await esplora.paymentsTo(deposit.address) : [];
  const observation = {
    payments,
    tipHeight: tipHeight ?? (esplora ? await esplora.tipHeight() : 0),
    confirmations: deps.confirmations,
  };
  const judge = (row: BitcoinDeposit, state: BitcoinWatchState) =>
    judgePayments(
      { state, amountSats: row.amount_sats, expiresAt: row.expires_at },
      { ...observation, now: deps.now() },
    );
  // Most looks change nothing: they take no lock.
  if (sameAs(deposit, judge(deposit, deposit.watch_state))) return 'unchanged';

  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('bitcoin_deposits')
      .selectAll()
      .where('tx_id', '=', txId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const state = watchStateWith(row.watch_state, (await loadTransaction(trx, txId))?.state);
    const verdict = judge(row, state);
    if (sameAs(row, verdict)) return 'unchanged';
    const metadata = { actor: BITCOIN_WATCHER_ACTOR };
    if (verdict.state !== state && verdict.state === 'cleared') {
      await executeLedgerCommand(
        trx,
        { type: 'ClearDeposit', txId, clearedBy: BITCOIN_WATCHER_ACTOR },
        deps.settings,
        metadata,
      );
    }
    if (verdict.state !== state && verdict.state === 'expired') {
      await executeLedgerCommand(trx, { type: 'ExpireDeposit', txId }, deps.settings, metadata);
    }
    const now = deps.now();
    await trx
      .updateTable('bitcoin_deposits')
      .set({
        watch_state: verdict.state,
        received_sats: verdict.receivedSats,
        confirmed_sats: verdict.confirmedSats,
        payment_txids: verdict.txids,
        confirmations: verdict.confirmations,
        seen_at: row.seen_at ?? (verdict.receivedSats > 0 ? now : null),
        ...(verdict.flag ? { flag: verdict.flag.flag, flag_reason: verdict.flag.reason, flagged_at: now } : {}),
      })
      .where('tx_id', '=', txId)
      .execute();
    if (verdict.flag)
      deps.log.warn(
        { txId, address: row.address, flag: verdict.flag.flag, reason: verdict.flag.reason },
        'bitcoin deposit flagged for an operator',
      );
    return verdict.state;
  });
}

const sameAs = (row: BitcoinDeposit, verdict: Verdict) =>
  row.watch_state === verdict.state &&
  row.received_sats === verdict.receivedSats &&
  row.confirmed_sats === verdict.confirmedSats &&
  row.payment_txids.join() === verdict.txids.join() &&
  row.confirmations === verdict.confirmations;

/**
 * One poll: every open deposit, and every other one up to a week past its
 * expiry, looked at with the same tip height. A deposit Esplora cannot
 * answer for is left to the next poll; the rest go on.
 */
export async function pollDeposits(
  deps: BitcoinWatchDeps & { esplora: Esplora },
): Promise<Partial<Record<WatchOutcome | 'failed', number>>> {
  const watched = await deps.db
    .selectFrom('bitcoin_deposits')
    .select('tx_id')
    .where((eb) =>
      eb.or([
        eb('watch_state', 'in', ['pending', 'processing']),
        eb('expires_at', '>', new Date(deps.now().getTime() - LATE_PAYMENT_WATCH_MS)),
      ]),
    )
    .orderBy('created_at')
    .execute();
  const outcomes: Partial<Record<WatchOutcome | 'failed', number>> = {};
  if (watched.length === 0) return outcomes;
  const tip = await deps.esplora.tipHeight();
  let next = 0;
  const lookAtNext = async (): Promise<void> => {
    for (let deposit = watched[next++]; deposit; deposit = watched[next++]) {
      let outcome: WatchOutcome | 'failed';
      try {
        outcome = await watchDeposit(deps, deposit.tx_id, tip);
      } catch (error) {
        deps.log.warn({ err: error, txId: deposit.tx_id }, 'bitcoin deposit not watched this time');
        outcome = 'failed';
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: POLL_CONCURRENCY }, lookAtNext));
  return outcomes;
}

/**
 * The expiry job: at the deposit's expiry, a last look at its address. An
 * unpaid deposit expires; a paid one is judged as the watcher would (a
 * payment in flight keeps it open, an underpayment is flagged). Run a little
 * early (clocks differ), it fails and is retried.
 */
export async function expireDeposit(deps: BitcoinWatchDeps, txId: string): Promise<WatchOutcome> {
  const outcome = await watchDeposit(deps, txId);
  const row = await deps.db
    .selectFrom('bitcoin_deposits')
    .select(['watch_state', 'expires_at'])
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
  if (row.watch_state === 'pending' && deps.now().getTime() < row.expires_at.getTime())
    throw new Error(`bitcoin deposit ${txId} expires at ${row.expires_at.toISOString()}, not yet`);
  return outcome;
}

export interface BitcoinWatcherDeps extends BitcoinWatchDeps {
  jobs: Pick<LedgerJobs, 'enqueue'>;
  /** BITCOIN_POLL_SECONDS. */
  pollSeconds: number;
}

export async function runBitcoinWatcher(boss: PgBoss, deps: BitcoinWatcherDeps): Promise<void> {
  // Deposits entered before their expiry jobs existed get one now; an expiry job enqueued already is not enqueued twice.
  const open = await deps.db
    .selectFrom('bitcoin_deposits')
    .select(['tx_id', 'expires_at'])
    .where('watch_state', 'in', ['pending', 'processing'])
    .execute();
  await deps.jobs.enqueue(
    deps.db,
    open.map((deposit) => bitcoinDepositExpiryJob(deposit.tx_id, deposit.expires_at.toISOString())),
  );
  await workEach<{ txId: string }>(boss, BITCOIN_DEPOSIT_EXPIRY_QUEUE.name, async (job) => {
    const outcome = await expireDeposit(deps, job.data.txId);
    deps.log.info({ txId: job.data.txId, outcome }, 'bitcoin deposit expiry');
  });

  const { esplora } = deps;
  if (!esplora) {
    deps.log.info(
      'BITCOIN_ESPLORA_URL is not set: bitcoin deposit addresses are not watched, and unpaid deposits expire',
    );
    return;
  }
  // Polls go in time slots of BITCOIN_POLL_SECONDS, one job per slot (its id is the slot's), so any number of workers poll once a slot.
  const pollMs = deps.pollSeconds * 1000;
  const slotOf = (at: Date) => Math.floor(at.getTime() / pollMs);
  const pollJob = (slot: number): LedgerJob => ({
    queue: BITCOIN_WATCH_QUEUE.name,
    id: jobId('bitcoin-watch', slot),
    data: { slot },
    startAfter: new Date(slot * pollMs),
  });
  await deps.jobs.enqueue(deps.db, [pollJob(slotOf(deps.now()))]);
  await workEach<{ slot: number }>(
    boss,
    BITCOIN_WATCH_QUEUE.name,
    async (job) => {
      // The next poll first, so that this one failing or its worker dying does not end the polling.
      await deps.jobs.enqueue(deps.db, [pollJob(Math.max(job.data.slot, slotOf(deps.now())) + 1)]);
      const outcomes = await pollDeposits({ ...deps, esplora });
      const changed = Object.entries(outcomes).some(([outcome]) => outcome !== 'unchanged');
      deps.log[changed ? 'info' : 'debug']({ outcomes }, 'bitcoin deposits polled');
    },
    { batchSize: 1 },
  );
}
