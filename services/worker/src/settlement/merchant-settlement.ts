import type { Database } from '@peeks/db';
import { walletIdOf, withdrawableAsCash, type Currency } from '@peeks/ledger';
import {
  executeLedgerCommand,
  loadTransaction,
  lockWallets,
  maturingCoinsOf,
  type LedgerJob,
  type LedgerJobs,
  type LedgerSettings,
} from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { jobId, MERCHANT_SETTLEMENT_QUEUE, SETTLEMENT_RUN_QUEUE } from '@peeks/jobs';
import { workEach } from '../job.ts';

export const SETTLEMENT_ACTOR = 'worker:merchant-settlement';

/** Impressions are not money: they are never settled. */
const SETTLED_CURRENCIES: readonly Currency[] = ['USD', 'CAD', 'CON'];

/**
 * A settlement period is a UTC day: each merchant wallet gets at most one
 * batch a day, whenever and however often SETTLEMENT_CRON runs in it.
 */
export const settlementPeriodOf = (at: Date) => at.toISOString().slice(0, 10);

export interface MerchantBatch {
  /** The merchant's owner id in the ledger (merchant-<id>). */
  ownerId: string;
  currency: Currency;
  period: string;
}

/** The merchant batch id: the same merchant, currency and period always name the same batch. */
export const merchantBatchIdOf = (batch: MerchantBatch) => `${batch.ownerId}:${batch.currency}:${batch.period}`;

/** The batch's ledger transaction id, derived from its batch id, so a batch run twice is a replay that moves nothing. */
export const settlementTxIdOf = (batch: MerchantBatch) => jobId('merchant-settlement', merchantBatchIdOf(batch));

export function merchantSettlementJob(batch: MerchantBatch): LedgerJob {
  return {
    queue: MERCHANT_SETTLEMENT_QUEUE.name,
    id: jobId('merchant-settlement-job', merchantBatchIdOf(batch)),
    data: { ...batch },
  };
}

/**
 * One job per merchant wallet that has withdrawable money, for `period`.
 * The job ids come from the batch ids, so a second run in the same period
 * (a retry, a catch-up, another worker) enqueues nothing new.
 */
export async function enqueueSettlementBatches(
  db: Kysely<Database>,
  jobs: Pick<LedgerJobs, 'enqueue'>,
  period: string,
): Promise<number> {
  const wallets = await db
    .selectFrom('wallets')
    .select(['owner_id', 'currency'])
    .where('owner_id', 'like', 'merchant-%')
    .where('status', '=', 'open')
    .where('currency', 'in', SETTLED_CURRENCIES)
    .where('withdrawable', '>', 0)
    .orderBy('wallet_id')
    .execute();
  const batches = wallets.map((wallet) =>
    merchantSettlementJob({ ownerId: wallet.owner_id, currency: wallet.currency as Currency, period }),
  );
  await jobs.enqueue(db, batches);
  return batches.length;
}

export type SettlementResult = { settled: number; batchId: string } | 'nothing to settle' | 'already settled';

/**
 * Moves what the merchant wallet can withdraw now (its sales past the hold,
 * and any money of its own) to the platform's settlement account, as one
 * SettleMerchantBatch with the batch id. Money still on hold waits for a
 * later period, and so do coins a card paid for until they mature. The
 * wallet is locked while its balance is read and debited, so a withdrawal
 * at the same moment cannot make the batch overdraw it.
 */
export async function settleMerchantBatch(
  db: Kysely<Database>,
  settings: LedgerSettings,
  batch: MerchantBatch,
): Promise<SettlementResult> {
  const txId = settlementTxIdOf(batch);
  const batchId = merchantBatchIdOf(batch);
  if (await loadTransaction(db, txId)) return 'already settled';
  return db.transaction().execute(async (trx) => {
    const walletId = walletIdOf(batch.ownerId, batch.currency);
    const wallet = (await lockWallets(trx, [walletId])).get(walletId);
    if (!wallet || wallet.status !== 'open') return 'nothing to settle';
    const amount =
      batch.currency === 'CON'
        ? withdrawableAsCash(wallet, (await maturingCoinsOf(trx, batch.ownerId, settings.now?.() ?? new Date())).amount)
        : wallet.withdrawable;
    if (amount <= 0) return 'nothing to settle';
    const { replayed } = await executeLedgerCommand(
      trx,
      {
        type: 'SettleMerchantBatch',
        txId,
        merchantId: batch.ownerId,
        batchId,
        amount,
        fee: 0,
        currency: batch.currency,
      },
      settings,
      { actor: SETTLEMENT_ACTOR },
    );
    return replayed ? 'already settled' : { settled: amount, batchId };
  });
}

export interface SettlementDeps {
  db: Kysely<Database>;
  settings: LedgerSettings;
  jobs: Pick<LedgerJobs, 'enqueue'>;
  log: Logger;
  /** SETTLEMENT_CRON: when the run happens, in UTC. */
  cron: string;
  now?: () => Date;
}

export async function runMerchantSettlement(boss: PgBoss, deps: SettlementDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  await boss.schedule(SETTLEMENT_RUN_QUEUE.name, deps.cron, {}, { tz: 'UTC' });
  // A run may name its period (a catch-up by hand); a scheduled one settles the day it runs in.
  await workEach<{ period?: string }>(boss, SETTLEMENT_RUN_QUEUE.name, async (job) => {
    const period = job.data.period ?? settlementPeriodOf(now());
    const batches = await enqueueSettlementBatches(deps.db, deps.jobs, period);
    deps.log.info({ period, batches }, 'settlement run');
  });
  await workEach<MerchantBatch>(boss, MERCHANT_SETTLEMENT_QUEUE.name, async (job) => {
    const outcome = await settleMerchantBatch(deps.db, deps.settings, job.data);
    deps.log.info({ batch: job.data, outcome }, 'merchant settlement');
  });
}
