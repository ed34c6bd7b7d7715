import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say } from './fields.ts';

/** At most this many recipients per search: enough to pick from, too few to page through everyone. */
export const USER_LIST_LIMIT = 10;
/** A username prefix shorter than this matches too many people to be a search. */
export const USER_SEARCH_MIN = 3;

/**
 * GET /api/user/user-list?search=: an exact e-mail address (when it has an
 * '@'; usernames cannot), else the start of a username.
 */
export const userListQuery = z.object(
  {
    search: z
      .string({ error: say.enter('Username/Email') })
      .trim()
      .min(1, say.enter('Username/Email'))
      .min(USER_SEARCH_MIN, say.atLeast(USER_SEARCH_MIN, 'Username/Email'))
      .max(64, say.atMost(64, 'Username/Email')),
  },
  { error: errorCatalogue[errorCodes.invalidArguments] },
);

/**
 * A recipient as the Send Funds card shows one (name, city, country) plus the
 * ids a transfer needs. No phone, birth date or e-mail: `email` is present
 * only when the search was that exact address, and then it is what was typed.
 */
export const recipient = z.object({
  user_id: z.number().int(),
  guser_id: z.uuid(),
  username: z.string(),
  fullname: z.string().nullable(),
  avatar: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string(),
  email: z.string().optional(),
  /** The shop a merchant's user is paid as (a scanned merchant QR code): its display name, to show instead of theirs. */
  shop_name: z.string().nullable().optional(),
});

export const userListResponse = successEnvelope({ users: z.array(recipient) });

/**
 * GET /api/user/recipient-lookup?guser_id=: the Transfer fund page's
 * recipient (spec §7 user/lookupUserById), by the global id its link or QR
 * code carries. A global id is a random UUID, so a lookup by it cannot be
 * used to walk the user list.
 */
export const recipientLookupQuery = z.object(
  {
    guser_id: z.uuid({
      error: (issue) => (issue.input === undefined ? say.enter('Recipient') : say.valid('Recipient')),
    }),
  },
  { error: errorCatalogue[errorCodes.invalidArguments] },
);

export const recipientResponse = successEnvelope({ user: recipient });

export type Recipient = z.infer<typeof recipient>;
