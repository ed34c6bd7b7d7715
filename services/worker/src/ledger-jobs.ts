import type { LedgerJob, LedgerJobs } from '@peeks/ledger-store';
import { bitcoinDepositExpiryJob } from './bitcoin/watcher.ts';
import { holdReleaseJob } from './holds/hold-release.ts';
import { webhookFanOutJob } from './webhooks/fan-out.ts';
import { mayTellWebhooks } from './webhooks/messages.ts';
import { withdrawalPayoutJob } from './payouts/withdrawal-payout.ts';

type DecidedEvent = Parameters<LedgerJobs['causedBy']>[1][number];

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
