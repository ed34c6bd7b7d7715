import { z } from 'zod';
import { postalFitsCountry } from './addresses.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { contactMessages } from './form-messages.ts';
import {
  countryCode,
  email,
  optionalText,
  phoneDigits,
  phoneRegion,
  positiveId,
  say,
  text,
  withDialledPhones,
} from './fields.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Variant A: exactly 10 digits, the dialling code in `phone_region`; or the spec's wire form, +14165550123. */
const contactPhone = phoneDigits('Phone Number', {
  missing: contactMessages.phoneMissing,
  invalid: contactMessages.phoneInvalid,
  short: contactMessages.phoneInvalid,
  long: contactMessages.phoneTooLong,
});
const splitPhone = withDialledPhones([['phone', 'phone_region']]);

/** Variant A: exactly two characters, the province or state code. */
const province = z
  .string({ error: contactMessages.province })
  .trim()
  .regex(/^[A-Za-z]{2}$/, contactMessages.province)
  .transform((value) => value.toUpperCase());

/** The Add New Contact / Update Contact Details form, variant A (§5). Bank fields are commented out in it. */
const contactFields = {
  name_first: text('First Name', { min: 2, max: 64 }),
  name_last: text('Last Name', { min: 2, max: 64 }),
  phone_region: phoneRegion('Phone Region'),
  phone: contactPhone,
  email: email('Email'),
  confirm_email: email('Confirm Email'),
  address1: text('Address Line 1', { min: 8, max: 64 }),
  address2: optionalText('Apartment/Unit/Suite', 64),
  country: countryCode(),
  province,
  city: text('City', { min: 3, max: 32 }),
  postal: text('Postal/Zip Code', { min: 4, max: 16 }),
};

/** Confirm e-mail must equal e-mail, checked even while other fields are wrong. */
function confirmsEmail<Schema extends z.ZodType<{ email: string; confirm_email: string }>>(schema: Schema) {
  return schema.superRefine(
    (value, context) => {
      if (value.email.toLowerCase() !== value.confirm_email.toLowerCase()) {
        context.addIssue({ code: 'custom', path: ['confirm_email'], message: contactMessages.emailsDiffer });
      }
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value.email === 'string' &&
        typeof payload.value.confirm_email === 'string' &&
        payload.value.confirm_email.trim() !== '',
    },
  );
}

/** POST /api/user/contact-create */
export const createContactRequest = confirmsEmail(
  postalFitsCountry(z.object(contactFields, invalidArguments), 'postal'),
).transform(splitPhone);

/** The Add A Recipient page's banking details (spec §5 "Banking"). */
export const recipientBanking = {
  bank_name: text('Bank Name', { min: 2, max: 100 }),
  institution_no: text('Institution Number', { min: 2, max: 100 }),
  account_no: text('Account Number', { min: 2, max: 15 }),
};

/** POST /api/user/recipient-create: the Add A Recipient page, a contact and the recipient's banking details. */
export const addRecipientRequest = confirmsEmail(
  postalFitsCountry(z.object({ ...contactFields, ...recipientBanking }, invalidArguments), 'postal'),
).transform(splitPhone);
export type AddRecipientRequest = z.infer<typeof addRecipientRequest>;

/** POST /api/user/contact-update: the whole form again, plus the id. */
export const updateContactRequest = confirmsEmail(
  postalFitsCountry(
    z.object({ contact_id: positiveId(say.valid('Contact')), ...contactFields }, invalidArguments),
    'postal',
  ),
).transform(splitPhone);

/** POST /api/user/contact-delete */
export const deleteContactRequest = z.object({ contact_id: positiveId(say.valid('Contact')) }, invalidArguments);

/**
 * The spec's Contact (§3). `guser_id`, `user_id`, `username`, `fullname`,
 * `avatar` and `currency` describe the registered user with the contact's
 * e-mail, if there is one (null otherwise): what Send A Money Transfer needs.
 * `phone` is the dialling code plus the 10 digits, as the form sends it.
 */
export const contact = z.object({
  contact_id: z.number().int(),
  guser_id: z.uuid().nullable(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  fullname: z.string().nullable(),
  avatar: z.string().nullable(),
  currency: z.string().nullable(),
  name_first: z.string(),
  name_last: z.string(),
  phone: z.string(),
  phone_region: z.string(),
  email: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  province: z.string(),
  country: z.string(),
  postal: z.string(),
  /** Add A Recipient's banking details, null for a contact saved without them. */
  bank_name: z.string().nullable().optional(),
  account_no: z.string().nullable().optional(),
});

export const contactListResponse = successEnvelope({ contacts: z.array(contact), total: z.number().int() });
export const contactResponse = successEnvelope({ contact });
export const contactDeletedResponse = successEnvelope({ message: z.string() });

export type Contact = z.infer<typeof contact>;
export type CreateContactRequest = z.infer<typeof createContactRequest>;
export type UpdateContactRequest = z.infer<typeof updateContactRequest>;
