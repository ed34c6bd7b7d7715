import { z } from 'zod';
import { addressLines } from './accounts.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { addressMessages } from './form-messages.ts';
import { countryCode, positiveId, postalCodeFits, say, text } from './fields.ts';

/** The spec's page size for the address list (§9); a client may ask for up to 100. */
export const ADDRESS_PAGE_SIZE = 25;

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The postal rule the address modal and the contact form share (§5): Canadian
 * format for CA, else a US ZIP; only once a country is chosen. Reported under
 * `postalField` while the other fields may still be wrong, so a form shows
 * every problem at once.
 */
export function postalFitsCountry<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  postalField: string,
  countryField = 'country',
) {
  return schema.superRefine(
    (value, context) => {
      const country = String(value[countryField]);
      const postal = String(value[postalField]);
      if (!/^[A-Z]{2}$/.test(country))
        context.addIssue({ code: 'custom', path: [postalField], message: addressMessages.countryFirst });
      else if (!postalCodeFits(country, postal))
        context.addIssue({ code: 'custom', path: [postalField], message: addressMessages.postalCode });
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value[postalField] === 'string' &&
        typeof payload.value[countryField] === 'string',
    },
  );
}

/**
 * The Address modal's fields. The spec gives only the postal rule for it, so
 * the lengths are those of the other address forms (wire and bank, §5).
 */
const addressFields = {
  ...addressLines,
  postal_code: text('Postal/Zip Code', { min: 4, max: 16 }),
  country: countryCode(),
  /** Left out on add: primary only if it is the user's first address. */
  is_primary: z.boolean({ error: say.valid('Primary') }).optional(),
};

/** POST /api/user/add-address */
export const addAddressRequest = postalFitsCountry(z.object(addressFields, invalidArguments), 'postal_code');

/** POST /api/user/update-address: every field again, as the modal sends them, plus the id. */
export const updateAddressRequest = postalFitsCountry(
  z.object({ address_id: positiveId(say.valid('Address')), ...addressFields }, invalidArguments),
  'postal_code',
);

/** POST /api/user/delete-address */
export const deleteAddressRequest = z.object({ address_id: positiveId(say.valid('Address')) }, invalidArguments);

const pageNumber = (label: string, max: number) =>
  z
    .string({ error: say.valid(label) })
    .regex(/^\d{1,6}$/, say.valid(label))
    .transform(Number)
    .refine((value) => value <= max, say.valid(label));

/** GET /api/user/address-list?offset&limit */
export const addressListQuery = z.object(
  {
    offset: pageNumber('offset', 1_000_000).default(0),
    limit: pageNumber('limit', 100)
      .refine((value) => value >= 1, say.valid('limit'))
      .default(ADDRESS_PAGE_SIZE),
  },
  invalidArguments,
);

/** The spec's Address (§3). */
export const address = z.object({
  address_id: z.number().int(),
  user_id: z.number().int(),
  name_first: z.string(),
  name_last: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  province_state: z.string(),
  postal_code: z.string(),
  country: z.string(),
  is_primary: z.boolean(),
});

export const addressListResponse = successEnvelope({ address: z.array(address), total: z.number().int() });
export const addressResponse = successEnvelope({ address, message: z.string() });
export const addressDeletedResponse = successEnvelope({ message: z.string() });

export type Address = z.infer<typeof address>;
export type AddAddressRequest = z.infer<typeof addAddressRequest>;
export type UpdateAddressRequest = z.infer<typeof updateAddressRequest>;
