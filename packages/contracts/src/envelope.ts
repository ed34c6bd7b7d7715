import { z } from 'zod';

/** One problem with a request; `field` names the input it belongs under. */
export const apiErrorItem = z.object({
  code: z.number().int(),
  field: z.string().optional(),
  message: z.string(),
});

/**
 * Every failure, whatever its status: `{"response":"error", message, errors,
 * request_id}`. The server always sends `request_id`; it is optional here so
 * bodies recorded before it existed still parse.
 */
export const errorEnvelope = z.object({
  response: z.literal('error'),
  message: z.string(),
  errors: z.array(apiErrorItem),
  request_id: z
    .string()
    .optional()
    .describe('The id of the request (also its X-Request-Id header): quote it when reporting a problem'),
});

/** The response header a replayed idempotent request answers with. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Its value: `true` when the answer is the first request's with the same
 * Idempotency-Key and nothing was done again; absent otherwise.
 */
export const idempotentReplayedHeader = z
  .literal('true')
  .describe('Present on the answer to a replayed Idempotency-Key: nothing was done again');

export type ApiErrorItem = z.infer<typeof apiErrorItem>;
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Every success: `{"response":"success", ...named data fields}`. */
export function successEnvelope<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ response: z.literal('success'), ...shape });
}
