import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { httpUrl, positiveId, say, text, withDialledPhones } from './fields.ts';
import { supportAndContactFields, supportAndContactPhones } from './accounts.ts';
import { merchantInfo } from './sessions.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** The tooltip on the disabled Name and DBA fields (spec §2, Profile page): only an admin changes them. */
export const merchantNameLocked = 'For update contact to admin';
export const merchantUpdatedMessage = 'Merchant Details Updated successfully.';

/**
 * POST /api/merchant/update-merchant: the 'Merchant Details' modal (spec §5
 * "Merchant edit"). Name and DBA may come along, as the modal shows them, but
 * the server refuses any change to them.
 */
export const updateMerchantRequest = z
  .object(
    {
      /** The merchant the session acts for; any other is 404. */
      merchant_id: positiveId(say.select('Merchant')).optional(),
      name: z.string().optional(),
      dba: z.string().optional(),
      website: httpUrl('Website'),
      address: z.object(
        {
          // "Address lines: required, min and max" (spec §5): both lines, unlike at registration.
          address1: text('Address 1', { min: 2, max: 100 }),
          address2: text('Address 2', { min: 2, max: 100 }),
        },
        invalidArguments,
      ),
      ...supportAndContactFields,
    },
    invalidArguments,
  )
  .transform(withDialledPhones(supportAndContactPhones));
export const updateMerchantResponse = successEnvelope({ message: z.string(), merchantInfo });

/** Terminal registration codes offered (spec §9). */
export const terminalRegistrationCodes = [101, 102] as const;

const registrationCode = z
  .union([z.literal(101), z.literal(102), z.literal('101'), z.literal('102')], {
    error: say.select('Registration Code'),
  })
  .transform((code) => Number(code) as (typeof terminalRegistrationCodes)[number]);

/** The Merchant Terminal modal (spec §5 "Terminal"). */
const terminalFields = {
  merchant_id: positiveId(say.select('Merchant')),
  terminal_id: text('Terminal Id', { min: 2, max: 128 }),
  comment: text('Comment', { min: 2, max: 512 }),
  registration_code: registrationCode,
};

/** POST /api/user/create-merchant-terminal */
export const createTerminalRequest = z.object(terminalFields, invalidArguments);
/** POST /api/user/update-merchant-terminal */
export const updateTerminalRequest = z.object(
  { ...terminalFields, merchant_terminal_id: positiveId(say.valid('Terminal')) },
  invalidArguments,
);
/** POST /api/merchant-terminal/delete */
export const deleteTerminalRequest = z.object(
  { merchant_terminal_id: positiveId(say.valid('Terminal')) },
  invalidArguments,
);

/** GET /api/merchant-terminal/list?merchant_id= (the session's merchant when left out) */
export const terminalListQuery = z.object(
  {
    merchant_id: z
      .string()
      .regex(/^[1-9]\d{0,14}$/, say.valid('merchant_id'))
      .transform(Number)
      .optional(),
  },
  invalidArguments,
);

/** The spec's Merchant terminal (§3). */
export const merchantTerminal = z.object({
  merchant_terminal_id: z.number().int(),
  merchant_id: z.number().int(),
  terminal_id: z.string(),
  comment: z.string(),
  registration_code: z.number().int(),
  entry_date: z.iso.datetime(),
});

export const terminalListResponse = successEnvelope({ merchantTerminalList: z.array(merchantTerminal) });
export const terminalResponse = successEnvelope({ merchantTerminal });

/** Category and Sub category (spec §3, Reference lists). */
export const category = z.object({ category_id: z.number().int(), name: z.string() });
export const subCategory = z.object({
  sub_category_id: z.number().int(),
  category_id: z.number().int(),
  name: z.string(),
});
export const categoriesResponse = successEnvelope({ categories: z.array(category) });
/** GET /api/category/subcategory?categoryId= */
export const subCategoryQuery = z.object(
  {
    categoryId: z
      .string({ error: say.select('Category') })
      .regex(/^[1-9]\d{0,14}$/, say.select('Category'))
      .transform(Number),
  },
  invalidArguments,
);
export const subCategoriesResponse = successEnvelope({ subCategories: z.array(subCategory) });

export type UpdateMerchantRequest = z.infer<typeof updateMerchantRequest>;
export type CreateTerminalRequest = z.infer<typeof createTerminalRequest>;
export type UpdateTerminalRequest = z.infer<typeof updateTerminalRequest>;
export type MerchantTerminal = z.infer<typeof merchantTerminal>;
