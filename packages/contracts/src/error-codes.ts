/**
 * The product spec's error catalogue (§8), plus the codes this platform adds
 * for failures the catalogue has no code for. New codes use five digits
 * starting with their HTTP status, so they never meet the spec's own.
 */
export const errorCatalogue = {
  1006: 'Invalid username or password',
  1009: 'Not authorized to perform this action',
  2501: "User doesn't exist",
  2502: 'User already exists',
  2519: 'Account deactivated or disabled, contact support to reactivate',
  4001: 'Must not be empty',
  4002: 'Invalid argument(s)',
  4003: 'Invalid format',
  4004: 'Invalid password',
  4040: 'Invalid amount',
  4041: 'Amount must be positive',
  4092: 'Expiry date must be after initial valid date',
  4215: 'Required field',
  4503: 'Username Already Exist',
  4507: 'Email ID Is Already Exist',
  4508: 'Phone Already Exist',
  4515: 'User is blocked',
  4534: 'User not invited',
  4536: 'Referral does not exist',
  10501: 'Payment method does not exist',
  10503: 'Payment method already exist',
  15001: 'No user exists with this social account, sign up via the mobile app',
  // Added by the platform.
  40400: 'Not found',
  40900: 'The record was changed by someone else; reload and try again',
  40901: 'This Idempotency-Key was already used for a different request',
  41300: 'Request is too large',
  41500: 'Unsupported content type',
  50000: 'Something went wrong',
  50300: 'Service unavailable',
} as const satisfies Record<number, string>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = {
  invalidArguments: 4002,
  invalidFormat: 4003,
  notFound: 40400,
  conflict: 40900,
  idempotencyKeyReused: 40901,
  payloadTooLarge: 41300,
  unsupportedMediaType: 41500,
  internal: 50000,
  unavailable: 50300,
} as const satisfies Record<string, ErrorCode>;
