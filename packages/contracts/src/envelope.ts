import { z } from 'zod';

/** One problem with a request; `field` names the input it belongs under. */
export const apiErrorItem = z.object({
  code: z.number().int(),
  field: z.string().optional(),
  message: z.string(),
});

/** Every failure, whatever its status: `{"response":"error", message, errors}`. */
export const errorEnvelope = z.object({
  response: z.literal('error'),
  message: z.string(),
  errors: z.array(apiErrorItem),
});

export type ApiErrorItem = z.infer<typeof apiErrorItem>;
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Every success: `{"response":"success", ...named data fields}`. */
export function successEnvelope<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ response: z.literal('success'), ...shape });
}
