import { productQueue, type QueueDefinition } from './queue.ts';

// Retried soon, then less often: a release refused because the clocks disagree by a second needs only a moment.
export const HOLD_RELEASE_QUEUE = productQueue('hold-release', {
  retryLimit: 30,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 3600,
});

export const WEBHOOK_FAN_OUT_QUEUE = productQueue('webhook-fan-out', {
  retryLimit: 20,
  retryDelay: 10,
  retryBackoff: true,
  retryDelayMax: 600,
});

/**
 * A job here is one POST of one delivery. pg-boss retries a job only when
 * its handler failed before recording the attempt (the database was away):
 * the schedule's retries are new jobs, each enqueued by the attempt before.
 */
export const WEBHOOK_ATTEMPT_QUEUE = productQueue('webhook-attempt', {
  retryLimit: 20,
  retryDelay: 10,
  retryBackoff: true,
  retryDelayMax: 600,
});

/** Retried while the provider does not answer: soon at first (a worker killed mid-job is retried in seconds), backing off to an hour apart. */
export const WITHDRAWAL_PAYOUT_QUEUE = productQueue('withdrawal-payout', {
  retryLimit: 30,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 3600,
});

/** The scheduled run: finds the merchants with money to settle and enqueues one batch job for each. */
export const SETTLEMENT_RUN_QUEUE = productQueue('settlement-run', {
  retryLimit: 10,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 3600,
});
/** One merchant wallet's batch of one period. */
export const MERCHANT_SETTLEMENT_QUEUE = productQueue('merchant-settlement', {
  retryLimit: 20,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 3600,
});

/** Retried while the SMTP server refuses or does not answer: about two days of tries, an hour apart at most. */
export const EMAIL_SEND_QUEUE = productQueue('email-send', {
  retryLimit: 50,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 3600,
});

/** One poll of every watched address; each run enqueues the next, so a failed run is simply followed by the next one. */
export const BITCOIN_WATCH_QUEUE = productQueue('bitcoin-watch', { retryLimit: 2, retryDelay: 5 });
/** A deposit's expiry, due when its address expires; retried while Esplora cannot say whether it was paid. */
export const BITCOIN_DEPOSIT_EXPIRY_QUEUE = productQueue('bitcoin-deposit-expiry', {
  retryLimit: 50,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 3600,
});
/** Every minute: card returns whose request died before the processor's refund, finished. */
export const CARD_RETURN_RETRY_QUEUE = productQueue('card-return-retry', { retryLimit: 0 });

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
  CARD_RETURN_RETRY_QUEUE,
];
