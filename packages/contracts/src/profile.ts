import { z } from 'zod';
import { newPassword } from './accounts.ts';
import { sessionUser } from './sessions.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { changePasswordMessages } from './form-messages.ts';
import {
  countryCode,
  email,
  optionalText,
  phoneNumber,
  phoneRegion,
  positiveId,
  say,
  text,
  withDialledPhones,
} from './fields.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** The signed-in user's own id, as the profile calls send it; any other id is 404. */
const ownUserId = (label: string) => positiveId(say.valid(label));

/**
 * POST /api/user/change-password (spec §5 "Change password"). `id` is the
 * signed-in user. The new password follows registration's rule, 8 to 12
 * characters in mixed case with a digit.
 */
export const changePasswordRequest = z
  .object(
    {
      id: ownUserId('id'),
      old_password: z
        .string({ error: changePasswordMessages.oldRequired })
        .min(1, changePasswordMessages.oldRequired)
        // Only to bound the hashing work; the login form allows 64.
        .max(64, say.atMost(64, 'Old password')),
      new_password: newPassword('New password', changePasswordMessages.newRequired),
      new_password_repeat: z
        .string({ error: changePasswordMessages.confirmRequired })
        .min(1, changePasswordMessages.confirmRequired),
    },
    invalidArguments,
  )
  .superRefine(
    (value, context) => {
      if (value.old_password === value.new_password)
        context.addIssue({ code: 'custom', path: ['new_password'], message: changePasswordMessages.same });
      if (value.new_password !== value.new_password_repeat)
        context.addIssue({
          code: 'custom',
          path: ['new_password_repeat'],
          message: changePasswordMessages.confirmDiffers,
        });
    },
    { when: (payload) => passwordsPresent(payload.value) },
  );

function passwordsPresent(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    typeof fields.old_password === 'string' &&
    typeof fields.new_password === 'string' &&
    typeof fields.new_password_repeat === 'string'
  );
}

export const changePasswordResponse = successEnvelope({ message: z.string() });

/** Prefix options (spec §3). */
export const prefixes = ['Miss', 'Ms.', 'Mrs.', 'Mr.', 'Other'] as const;

/**
 * POST /api/user/update-user: the User Details modal (spec §5 "User details").
 * Needs the UPDATE_USER permission (spec §6).
 */
export const updateUserRequest = z
  .object(
    {
      user_id: ownUserId('user_id'),
      prefix: z.enum(prefixes, { error: say.select('Prefix') }).nullish(),
      name_first: text('First Name', { min: 2, max: 64 }),
      name_last: text('Last Name', { min: 2, max: 64 }),
      email: email(),
      phone: phoneNumber('Phone Number'),
      phone_region: phoneRegion('Phone Region'),
      country: countryCode(),
      city: optionalText('City', 64),
      // No limit in the spec; 512 keeps a profile a profile.
      description: optionalText('Description', 512),
    },
    invalidArguments,
  )
  .transform(withDialledPhones([['phone', 'phone_region']]));

export const updateUserResponse = successEnvelope({ user: sessionUser, message: z.string() });

/**
 * Notification preferences. The spec says the keys are data-driven and shows
 * none, so these are ours: one per kind of activity the wallet reports, and
 * one per way of reaching the user. Keys are unique across both sections, so
 * user-config-update can send a single key.
 */
export const notificationTypes = [
  'deposit',
  'withdraw',
  'send-fund',
  'receive-fund',
  'purchase',
  'login',
  'newsletter',
] as const;
export const notifyMethods = ['email', 'sms', 'push'] as const;
/** Everything is on but SMS and the newsletter until the user says otherwise. */
export const preferenceDefaults = {
  notifications: {
    deposit: true,
    withdraw: true,
    'send-fund': true,
    'receive-fund': true,
    purchase: true,
    login: true,
    newsletter: false,
  },
  'notify-methods': { email: true, sms: false, push: true },
} as const satisfies {
  notifications: Record<(typeof notificationTypes)[number], boolean>;
  'notify-methods': Record<(typeof notifyMethods)[number], boolean>;
};

export const preferenceSections = ['notifications', 'notify-methods'] as const;
export type PreferenceSection = (typeof preferenceSections)[number];

/** POST /api/user/get-user-prefs: `section` is ['all'] by default, or the sections wanted. */
export const getUserPrefsRequest = z.object(
  {
    user_id: ownUserId('user_id'),
    section: z
      .array(z.enum(['all', ...preferenceSections], { error: say.select('Section') }))
      .min(1, say.select('Section'))
      .default(['all']),
  },
  invalidArguments,
);

export const userPreferences = z.object({
  notifications: z.record(z.string(), z.boolean()).optional(),
  'notify-methods': z.record(z.string(), z.boolean()).optional(),
});
export const getUserPrefsResponse = successEnvelope({ preferences: userPreferences });

const preferenceKeys: readonly string[] = [...notificationTypes, ...notifyMethods];

/** POST /api/user/user-config-update: one known key and its new boolean (spec §7). */
export const userConfigUpdateRequest = z.object(
  {
    user_id: ownUserId('user_id'),
    config: z
      .record(z.string(), z.boolean({ error: say.valid('Notification') }), { error: say.valid('Notification') })
      .refine((config) => Object.keys(config).length === 1, say.select('Notification'))
      .refine((config) => Object.keys(config).every((key) => preferenceKeys.includes(key)), say.select('Notification')),
  },
  invalidArguments,
);
export const userConfigUpdateResponse = getUserPrefsResponse;

export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;
export type UserPreferences = z.infer<typeof userPreferences>;
