import type { Config } from '@peeks/runtime';
import { resolveWithDns, type DestinationPolicy } from '@peeks/jobs';
import { RETRY_SCHEDULE_MS } from './schedule.ts';

/** What webhook delivery runs under; tests shorten the schedule and the polling. */
export interface WebhookSettings {
  policy: DestinationPolicy;
  timeoutMs: number;
  /** Waits before each attempt of a delivery (RETRY_SCHEDULE_MS, or a scaled copy in tests). */
  schedule: readonly number[];
  /** Failing for this long without one success disables a webhook. */
  disableAfterMs: number;
  /** Attempts one process sends at once. */
  concurrency: number;
  pollingIntervalSeconds: number;
  now: () => Date;
}

export type WebhookConfig = Pick<
  Config,
  'WEBHOOK_ALLOW_PRIVATE' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_DISABLE_AFTER_DAYS' | 'WEBHOOK_CONCURRENCY'
>;

export function webhookSettingsFrom(config: WebhookConfig, overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    policy: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, resolve: resolveWithDns },
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    schedule: RETRY_SCHEDULE_MS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_DAYS * 24 * 3600e3,
    concurrency: config.WEBHOOK_CONCURRENCY,
    pollingIntervalSeconds: 2,
    now: () => new Date(),
    ...overrides,
  };
}
