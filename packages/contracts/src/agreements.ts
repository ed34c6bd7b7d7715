import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { agreementMessages } from './form-messages.ts';
import { positiveId, say } from './fields.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/**
 * Who an agreement binds: a user for themself, or a merchant (accepted once,
 * by any of its users with the agreements permission).
 */
export const agreementAudiences = ['user', 'merchant'] as const;

/** The spec's Agreement (§3); dates are ISO 8601, `agreed_to` is when it was accepted, null while pending. */
export const agreement = z.object({
  agreement_id: z.number().int(),
  name: z.string(),
  version: z.number().int(),
  category: z.string(),
  audience: z.enum(agreementAudiences),
  /** HTML, written by the operator; the modal renders it. */
  short_description: z.string(),
  agreed_to: z.iso.datetime().nullable(),
  agree_by: z.iso.datetime().nullable(),
  effective_date: z.iso.datetime(),
  expiry_date: z.iso.datetime().nullable(),
  is_accepted: z.boolean(),
  is_skipped: z.boolean(),
});

const flag = (label: string) => z.boolean({ error: say.valid(label) }).optional();
const ownId = (label: string) => positiveId(say.valid(label)).optional();

/**
 * POST /api/agreement/agreement-list. `merchant_id` and `user_id` may only
 * name the session's own; `user_only` keeps the user's own agreements (not
 * the merchant's); `agreed_to` keeps accepted (true) or pending (false) ones;
 * `valid_only` keeps those in effect now.
 */
export const agreementListRequest = z
  .object(
    {
      merchant_id: ownId('merchant_id'),
      user_id: ownId('user_id'),
      user_only: flag('user_only'),
      agreed_to: flag('agreed_to'),
      valid_only: flag('valid_only'),
    },
    invalidArguments,
  )
  .nullish()
  .transform((body) => body ?? {});
export const agreementListResponse = successEnvelope({ agreements: z.array(agreement) });
export const agreementLookupResponse = successEnvelope({ agreement });

/**
 * POST /api/agreement/update-agreement: `agreed_to: true` accepts (the
 * checkbox); `skip: true` puts it off, allowed only before agree_by.
 */
export const updateAgreementRequest = z
  .object(
    {
      merchant_id: ownId('merchant_id'),
      user_id: ownId('user_id'),
      agreement_id: positiveId(say.valid('Agreement')),
      agreed_to: z.boolean({ error: agreementMessages.checkbox }).optional(),
      skip: flag('skip'),
    },
    invalidArguments,
  )
  .refine((body) => body.agreed_to === true || body.skip === true, {
    path: ['agreed_to'],
    error: agreementMessages.checkbox,
  });
export const updateAgreementResponse = successEnvelope({ agreement });

export type Agreement = z.infer<typeof agreement>;
export type AgreementListRequest = z.infer<typeof agreementListRequest>;
