import { HOLD_RELEASE_QUEUE } from './holds/hold-release.ts';
import type { QueueDefinition } from './job.ts';
import { WEBHOOK_ATTEMPT_QUEUE } from './webhooks/attempt.ts';
import { WEBHOOK_FAN_OUT_QUEUE } from './webhooks/fan-out.ts';

/** Every queue the ledger's events feed, with its retry policy. */
export const PRODUCT_QUEUES: QueueDefinition[] = [HOLD_RELEASE_QUEUE, WEBHOOK_FAN_OUT_QUEUE, WEBHOOK_ATTEMPT_QUEUE];
