import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { positiveId, say, text } from './fields.ts';

/**
 * Permission names. The spec names only UPDATE USER (§6); the merchant ones
 * are ours, one per merchant screen a later issue guards.
 */
export const userPermissions = ['UPDATE_USER'] as const;
export const merchantPermissions = [
  'UPDATE_MERCHANT',
  'MANAGE_TERMINALS',
  'MANAGE_WEBHOOKS',
  'MANAGE_AGREEMENTS',
  'UPLOAD_DOCUMENTS',
  'ACCEPT_PAYMENTS',
  'VIEW_SALES',
  'RETURN_SALES',
] as const;

export const loginFailedMessage = 'Incorrect Username/Email or Password';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** POST /api/login: `username` is a username or an e-mail address. */
export const loginRequest = z.object(
  {
    username: text('Username/Email', { max: 64 }),
    password: z
      .string({ error: (issue) => (issue.input === undefined ? say.enter('Password') : say.valid('Password')) })
      .min(1, say.enter('Password'))
      .min(6, 'Password must have at least 6 characters')
      .max(64, say.atMost(64, 'Password')),
  },
  invalidArguments,
);

/** A POST that takes no input: no body (fastify hands the schema null), or an empty object. */
export const noInput = z.strictObject({}, invalidArguments).nullish();

/** The spec's Session user (§3). Dates are ISO 8601, the birthday is "DD-MM-YYYY" as the forms type it. */
export const sessionUser = z.object({
  user_id: z.number().int(),
  /** The id other users address this one by: contacts, send-fund, QR codes. */
  guser_id: z.uuid(),
  username: z.string(),
  email: z.string(),
  fullname: z.string().nullable(),
  /** The User profile's parts (spec §3), set in the User Details modal; null until then. */
  prefix: z.string().nullable(),
  name_first: z.string().nullable(),
  name_last: z.string().nullable(),
  phone_region: z.string().nullable(),
  avatar: z.string().nullable(),
  birthday: z.string(),
  gender: z.string().nullable(),
  phone: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  country: z.string(),
  currency: z.string(),
  description: z.string().nullable(),
  /** There are no social features; the spec's counters are always 0. */
  followers: z.number().int(),
  following: z.number().int(),
  account_status: z.string(),
  is_banned: z.boolean(),
  role: z.string(),
  user_type: z.enum(['personal', 'business']),
  terms_accepted: z.boolean(),
  perms: z.array(z.string()),
  /** The merchant this session acts for; null for a user who belongs to none. */
  merchant_id: z.number().int().nullable(),
  /** Every merchant the user belongs to: id → name. */
  merchants: z.record(z.string(), z.string()),
  creation_time: z.iso.datetime(),
  last_update: z.iso.datetime(),
});

export const sessionResponse = successEnvelope({ user: sessionUser.nullable(), csrfToken: z.string() });
/** A new session: login and registration rotate the session id and its CSRF token. */
export const signedInResponse = successEnvelope({ user: sessionUser, csrfToken: z.string() });

const recordId = (label: string) =>
  z
    .string({ error: say.enter(label) })
    .regex(/^[1-9]\d{0,14}$/, say.valid(label))
    .transform(Number);

/** GET /api/user/user-lookup, /api/user/perm and /api/user/merchant-lookup take `?id=`. */
export const lookupQuery = z.object({ id: recordId('id') }, invalidArguments);

export const userLookupResponse = successEnvelope({ userInfo: sessionUser });
export const permResponse = successEnvelope({
  permissions: z.array(z.string()),
  merchant_permissions: z.array(z.string()),
});

/** The spec's Merchant (§3) with the signed-in user's permissions on it. */
export const merchantInfo = z.object({
  merchant_id: z.number().int(),
  name: z.string(),
  dba: z.string(),
  website: z.string(),
  phone: z.string(),
  phone_region: z.string(),
  address: z.object({
    address1: z.string(),
    address2: z.string().nullable(),
    city: z.string(),
    province: z.string(),
    postal_code: z.string(),
    country: z.string(),
  }),
  support_url: z.string(),
  support_phone: z.string(),
  /** The support and contact phones' dialling codes, so an edit starts from them rather than +1. */
  support_phone_region: z.string(),
  support_email: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
  contact_phone_region: z.string(),
  perms: z.array(z.string()),
});

export const merchantLookupResponse = successEnvelope({ merchantInfo });

/** POST /api/merchant/switch-merchant */
export const switchMerchantRequest = z.object({ merchant_id: positiveId(say.select('Merchant')) }, invalidArguments);
export const switchMerchantResponse = successEnvelope({ user: sessionUser });

export const emptySuccess = successEnvelope({});

export type SessionUser = z.infer<typeof sessionUser>;
export type MerchantInfo = z.infer<typeof merchantInfo>;
export type LoginRequest = z.infer<typeof loginRequest>;
