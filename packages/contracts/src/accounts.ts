import { z } from 'zod';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { MINIMUM_AGE, registrationMessages } from './form-messages.ts';
import {
  ageOn,
  countryCode,
  email,
  httpUrl,
  optionalText,
  parseDayMonthYear,
  pastDate,
  phoneNumber,
  phoneRegion,
  positiveId,
  postalCode,
  postalCodeFits,
  say,
  text,
  withDialledPhones,
} from './fields.ts';

/** The brand word a username must not contain, in any letter case (platform §5). */
export const BRAND_WORD = 'peeks';

const username = text('Username', { min: 6, max: 64 })
  .regex(/^\w+$/, say.valid('Username'))
  .refine((value) => !value.toLowerCase().includes(BRAND_WORD), registrationMessages.brandWord);

/** The new-password rules one by one, as a form ticks them off while the password is typed. */
export const passwordRules = {
  length: (value: string) => value.length >= 8 && value.length <= 12,
  mixed_case: (value: string) => /[a-z]/.test(value) && /[A-Z]/.test(value),
  digit: (value: string) => /\d/.test(value),
} as const;

/**
 * 8 to 12 characters with a lowercase letter, an uppercase letter and a digit
 * (spec §9), the `passwordRules`. Never trimmed. Forgot-password and change-password word the
 * missing case their own way, hence `missing`.
 */
export const newPassword = (label = 'Password', missing = say.enter(label)) => {
  const mix = `Please enter ${label} with mixed case of letters & numbers`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? missing : say.valid(label)) })
    .min(1, missing)
    .min(8, say.atLeast(8, label))
    .max(12, say.atMost(12, label))
    .regex(/[a-z]/, mix)
    .regex(/[A-Z]/, mix)
    .regex(/\d/, mix);
};

const birthday = pastDate('Birth Date', { code: errorCodes.birthDate }).refine(
  (value) => {
    const date = parseDayMonthYear(value);
    return date === null || ageOn(date, new Date()) >= MINIMUM_AGE;
  },
  { error: registrationMessages.tooYoung, params: { code: errorCodes.birthDate } },
);

/** What personal and business sign-up share: the User Details section. */
const userDetails = {
  username,
  email: email(),
  password: newPassword(),
  confirm_password: z.string({
    error: (issue) => (issue.input === undefined ? say.enter('Confirm Password') : say.valid('Confirm Password')),
  }),
  birthday,
  country: countryCode(),
  termsAccepted: z.literal(1, { error: registrationMessages.terms }),
};

type Fields = Record<string, unknown>;
const isRecord = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Confirm password is checked against password even while other fields are
 * still wrong, so the form can show every problem at once.
 */
function confirmsPassword<Schema extends z.ZodType<{ password: string; confirm_password: string }>>(schema: Schema) {
  return schema.superRefine(
    (value, context) => {
      if (value.password === '')
        context.addIssue({ code: 'custom', path: ['confirm_password'], message: registrationMessages.passwordFirst });
      else if (value.confirm_password === '')
        context.addIssue({ code: 'custom', path: ['confirm_password'], message: say.enter('Confirm Password') });
      else if (value.password !== value.confirm_password)
        context.addIssue({ code: 'custom', path: ['confirm_password'], message: registrationMessages.passwordsDiffer });
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value.password === 'string' &&
        typeof payload.value.confirm_password === 'string',
    },
  );
}

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** POST /api/register/personal */
export const personalRegistration = confirmsPassword(z.object(userDetails, invalidArguments));

export const businessTypes = [
  'individual',
  'soleproprietor',
  'nonprofit',
  'corporation',
  'partnership',
  'private',
  'public',
  'government',
] as const;

/** Name and street lines, as every address form of the spec writes them (§5). */
export const nameAndStreetLines = {
  name_first: text('First Name', { min: 2, max: 64 }),
  name_last: text('Last Name', { min: 2, max: 64 }),
  address1: text('Address', { min: 2, max: 100 }),
  address2: optionalText('Address 2', 64),
  city: text('City', { min: 2, max: 40 }),
};

/** Name and address lines, as the registration's Address section and the Address modal share them. */
export const addressLines = {
  ...nameAndStreetLines,
  province_state: text('Province/State', { min: 2, max: 64 }),
};

/** The merchant's Support and contact fields (spec §5), at registration and in Merchant edit. */
export const supportAndContactFields = {
  support_url: httpUrl('Support Url'),
  support_phone: phoneNumber('Support Phone'),
  support_phone_region: phoneRegion('Support Phone Region'),
  support_email: email('Support Email'),
  contact_name: text('Contact Name', { min: 2, max: 64 }),
  contact_email: email('Contact Email'),
  contact_phone: phoneNumber('Contact Phone'),
  contact_phone_region: phoneRegion('Contact Phone Region'),
};

/** The business's address as the Address section sends it. */
export const registrationAddress = z
  .object(
    {
      email: email(),
      phone: phoneNumber('Phone Number'),
      ...addressLines,
      postal_code: postalCode(),
      country: countryCode(),
    },
    invalidArguments,
  )
  .superRefine(
    (address, context) => {
      if (!/^[A-Z]{2}$/.test(address.country))
        context.addIssue({ code: 'custom', path: ['postal_code'], message: registrationMessages.countryFirst });
      else if (!postalCodeFits(address.country, address.postal_code))
        context.addIssue({ code: 'custom', path: ['postal_code'], message: registrationMessages.postalCode });
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value.postal_code === 'string' &&
        typeof payload.value.country === 'string',
    },
  )
  .transform(withDialledPhones([['phone', null]]));

/** The phones of the Support and contact fields with their regions, for withDialledPhones. */
export const supportAndContactPhones = [
  ['support_phone', 'support_phone_region'],
  ['contact_phone', 'contact_phone_region'],
] as const;

/** POST /api/register/business: User Details plus the Merchant, Address, Support and Owner sections. */
export const businessRegistration = confirmsPassword(
  z.object(
    {
      ...userDetails,
      name: text('Name', { min: 2, max: 64 }),
      dba: text('DBA', { min: 2, max: 64 }),
      website: httpUrl('Website'),
      category_id: positiveId(say.select('Category')),
      sub_category_id: positiveId(say.select('Sub Category')),
      business_type: z.enum(businessTypes, { error: say.select('Business Type') }),
      date_established: pastDate('Date Established'),
      /** Expected monthly sales in cents, like every amount on the wire. */
      monthly_sales: z
        .number({ error: say.valid('Monthly Sales') })
        .int(say.valid('Monthly Sales'))
        .nonnegative(say.valid('Monthly Sales'))
        .max(Number.MAX_SAFE_INTEGER, say.valid('Monthly Sales')),
      business_number: text('Business Number', { min: 2, max: 64 }).regex(/^\d+$/, say.valid('Business Number')),
      business_country: countryCode('Business Country'),
      phone: phoneNumber('Phone Number'),
      phone_region: phoneRegion('Phone Region'),
      address: registrationAddress,
      ...supportAndContactFields,
      owner_citizenship: text('Owner Citizenship', { max: 64 }),
      owner_dob: pastDate('Owner Birth Date'),
      owner_name: text('Owner Name', { min: 2, max: 64 }),
      owner_phone: phoneNumber('Owner Phone'),
      owner_phone_region: phoneRegion('Owner Phone Region'),
      owner_email: email('Owner Email'),
    },
    invalidArguments,
  ),
).transform(
  withDialledPhones([['phone', 'phone_region'], ['owner_phone', 'owner_phone_region'], ...supportAndContactPhones]),
);

export type PersonalRegistration = z.infer<typeof personalRegistration>;
export type BusinessRegistration = z.infer<typeof businessRegistration>;
export type RegistrationAddress = z.infer<typeof registrationAddress>;
