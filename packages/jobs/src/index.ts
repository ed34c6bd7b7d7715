export { bossConnection, jobId, type QueueDefinition } from './queue.ts';
export {
  BITCOIN_DEPOSIT_EXPIRY_QUEUE,
  BITCOIN_WATCH_QUEUE,
  CARD_RETURN_RETRY_QUEUE,
  EMAIL_SEND_QUEUE,
  HOLD_RELEASE_QUEUE,
  MERCHANT_SETTLEMENT_QUEUE,
  PRODUCT_QUEUES,
  SETTLEMENT_RUN_QUEUE,
  WEBHOOK_ATTEMPT_QUEUE,
  WEBHOOK_FAN_OUT_QUEUE,
  WITHDRAWAL_PAYOUT_QUEUE,
} from './queues.ts';
export { createProductQueues, JobQueue, openJobQueue } from './job-queue.ts';
export {
  bitcoinDepositExpiryJob,
  holdReleaseJob,
  jobsCausedBy,
  webhookFanOutJob,
  withdrawalPayoutJob,
} from './ledger-jobs.ts';
export { queueEmail, renderEmail, type OutgoingEmail } from './email-outbox.ts';
export { openEmailSecrets, spentEmailPayload } from './email-secrets.ts';
export { platformSecret } from './platform-secrets.ts';
export { attemptJob, replayDelivery, type AttemptData } from './webhook-attempts.ts';
export { mayTellWebhooks, tellsPersonalWebhooks, toldOwnerOf, webhookEventOf } from './webhook-events.ts';
export {
  checkedAddresses,
  checkedLookup,
  destinationProblem,
  literalAddress,
  resolveWithDns,
  type DestinationPolicy,
  type DestinationProblem,
  type ResolveHost,
} from './webhook-destination.ts';
