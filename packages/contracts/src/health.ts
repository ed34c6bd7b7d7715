import { z } from 'zod';
import { successEnvelope } from './envelope.ts';

export const healthResponse = successEnvelope({
  database: z.literal('up'),
  /** The latest applied migration, e.g. "0002_idempotency_keys". */
  migration: z.string().nullable(),
});

export type HealthResponse = z.infer<typeof healthResponse>;
