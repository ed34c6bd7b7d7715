import { BITCOIN_DEPOSIT_EXPIRY_QUEUE, BITCOIN_WATCH_QUEUE } from './bitcoin/watcher.ts';
import { HOLD_RELEASE_QUEUE } from './holds/hold-release.ts';
import { EMAIL_SEND_QUEUE } from './email/outbox.ts';
import type { QueueDefinition } from './job.ts';
import { WEBHOOK_ATTEMPT_QUEUE } from './webhooks/attempt.ts';
import { WEBHOOK_FAN_OUT_QUEUE } from './webhooks/fan-out.ts';
import { WITHDRAWAL_PAYOUT_QUEUE } from './payouts/withdrawal-payout.ts';
import { MERCHANT_SETTLEMENT_QUEUE, SETTLEMENT_RUN_QUEUE } from './settlement/merchant-settlement.ts';

/** Every queue the ledger's events (and the settlement and bitcoin schedules) feed, with its retry policy. */
export const PRODUCT_QUEUES: QueueDefinition[] = [
  HOLD_RELEASE_QUEUE,
  WEBHOOK_FAN_OUT_QUEUE,
  WEBHOOK_ATTEMPT_QUEUE,
  WITHDRAWAL_PAYOUT_QUEUE,
  SETTLEMENT_RUN_QUEUE,
  MERCHANT_SETTLEMENT_QUEUE,
  EMAIL_SEND_QUEUE,
  BITCOIN_WATCH_QUEUE,
  BITCOIN_DEPOSIT_EXPIRY_QUEUE,
];
