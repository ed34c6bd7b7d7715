import type { LedgerJob, LedgerJobs } from '@peeks/ledger-store';
import { jobId } from './queue.ts';
import {
  BITCOIN_DEPOSIT_EXPIRY_QUEUE,
  HOLD_RELEASE_QUEUE,
  WEBHOOK_FAN_OUT_QUEUE,
  WITHDRAWAL_PAYOUT_QUEUE,
} from './queues.ts';
import { mayTellWebhooks } from './webhook-events.ts';

type DecidedEvent = Parameters<LedgerJobs['causedBy']>[1][number];

/** The one job that releases the hold of a transfer, due when the hold ends. */
export function holdReleaseJob(txId: string, releaseAt: string): LedgerJob {
  return {
    queue: HOLD_RELEASE_QUEUE.name,
    id: jobId('hold-release', txId),
    data: { txId },
    startAfter: new Date(releaseAt),
  };
}

/** The one job that turns a ledger event into deliveries, enqueued with the event. */
export function webhookFanOutJob(txId: string, eventVersion: number): LedgerJob {
  return {
    queue: WEBHOOK_FAN_OUT_QUEUE.name,
    id: jobId('webhook-fan-out', txId, eventVersion),
    data: { txId, eventVersion },
  };
}

/** The one job that pays out a requested withdrawal. */
export function withdrawalPayoutJob(txId: string): LedgerJob {
  return { queue: WITHDRAWAL_PAYOUT_QUEUE.name, id: jobId('withdrawal-payout', txId), data: { txId } };
}

/** The one expiry job of a bitcoin deposit, due when its address expires. */
export function bitcoinDepositExpiryJob(txId: string, expiresAt: string): LedgerJob {
  return {
    queue: BITCOIN_DEPOSIT_EXPIRY_QUEUE.name,
    id: jobId('bitcoin-deposit-expiry', txId),
    data: { txId },
    startAfter: new Date(expiresAt),
  };
}

/**
 * The later work each ledger event leaves behind. Pure: the job ids come
 * from the transaction and the event's version in its stream.
 */
export function jobsCausedBy(txId: string, events: readonly DecidedEvent[]): LedgerJob[] {
  return events.flatMap((event) => {
    const jobs: LedgerJob[] = [];
    if (event.type === 'FundsTransferred' && event.data.hold)
      jobs.push(holdReleaseJob(txId, event.data.hold.releaseAt));
    if (mayTellWebhooks(event)) jobs.push(webhookFanOutJob(txId, event.version));
    if (event.type === 'WithdrawalRequested') jobs.push(withdrawalPayoutJob(txId));
    if (event.type === 'DepositEntered' && event.data.method === 'bitcoin' && event.data.expiresAt !== null)
      jobs.push(bitcoinDepositExpiryJob(txId, event.data.expiresAt));
    return jobs;
  });
}
