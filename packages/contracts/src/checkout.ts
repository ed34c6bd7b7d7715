import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { checkoutMessages } from './form-messages.ts';
import { httpUrl, say, text } from './fields.ts';
import { minorAmount, storedMethodId, withinTransferLimit } from './payments.ts';
import { quoteIdField } from './quotes.ts';
import { cartLine, currencyCode } from './transactions.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** How long a checkout session stays payable, in seconds: a minute to a week, an hour unless told. */
export const CHECKOUT_EXPIRY_SECONDS = { min: 60, max: 7 * 24 * 3600, default: 3600 } as const;

const cartLineInput = z.object(
  {
    sku: text('SKU', { max: 64 }),
    name: text('Name', { max: 128 }),
    price: minorAmount('price'),
  },
  invalidArguments,
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * POST /api/checkout/create-session, merchant only: a cart with its total
 * (minor units of `currency`, which must be the sum of the lines, and at
 * most the Transfer fund limit, since paying it is a transfer), how long it
 * may be paid (`expires_in` seconds) and where the payer's browser goes after
 * paying (`success_url`, the URL rule of §5 "Other shared rules").
 */
export const createCheckoutRequest = withinTransferLimit(
  z.object(
    {
      cart: z
        .array(cartLineInput, { error: checkoutMessages.cartEmpty })
        .min(1, checkoutMessages.cartEmpty)
        .max(100, checkoutMessages.cartTooLong),
      total: minorAmount('total'),
      currency: currencyCode.default('CON'),
      expires_in: z
        .number({ error: checkoutMessages.expiry })
        .int(checkoutMessages.expiry)
        .min(CHECKOUT_EXPIRY_SECONDS.min, checkoutMessages.expiry)
        .max(CHECKOUT_EXPIRY_SECONDS.max, checkoutMessages.expiry)
        .default(CHECKOUT_EXPIRY_SECONDS.default),
      success_url: httpUrl('Success URL'),
    },
    invalidArguments,
  ),
  'total',
  'CON',
  'total',
).superRefine(
  (value, context) => {
    const lines = value.cart as { price?: unknown }[];
    const sum = lines.reduce((total, line) => total + (typeof line.price === 'number' ? line.price : 0), 0);
    if (sum !== value.total)
      context.addIssue({ code: 'custom', path: ['total'], message: checkoutMessages.totalDiffers });
  },
  {
    when: (payload) =>
      isRecord(payload.value) &&
      typeof payload.value.total === 'number' &&
      Array.isArray(payload.value.cart) &&
      payload.value.cart.every((line) => isRecord(line) && typeof line.price === 'number'),
  },
);

export type CreateCheckoutRequest = z.infer<typeof createCheckoutRequest>;

export const createCheckoutResponse = successEnvelope({
  id: z.number().int(),
  token: z.string(),
  expires_at: z.string(),
});

/** A session's id and the secret token its link carries: together they are what lets a payer see and pay it. */
const checkoutId = z
  .string({ error: say.enter('id') })
  .regex(/^[1-9]\d{0,14}$/, say.valid('id'))
  .transform(Number);
const checkoutToken = z.string({ error: say.enter('token') }).regex(/^[A-Za-z0-9_-]{43}$/, say.valid('token'));

/** GET /api/checkout/session?id&token: the Checkout page's purchase summary. */
export const checkoutQuery = z.object({ id: checkoutId, token: checkoutToken }, invalidArguments);

/** POST /api/checkout/pay: pay the session from the signed-in payer's wallet, or with their stored card `paymentMethodId`. */
export const payCheckoutRequest = z.object(
  {
    id: z
      .number({ error: say.valid('id') })
      .int(say.valid('id'))
      .positive(say.valid('id'))
      .max(Number.MAX_SAFE_INTEGER, say.valid('id')),
    token: checkoutToken,
    paymentMethodId: storedMethodId.optional(),
    /** A USD or CAD total paid from coins at this quote (CON to the total's currency, `amount_out` the total). */
    quote_id: quoteIdField,
  },
  invalidArguments,
);

/** GET /api/checkout/session-details?id, merchant only: the merchant's own session, token or not. */
export const checkoutDetailsQuery = z.object({ id: checkoutId }, invalidArguments);

/** open: payable; paid: its transfer has gone through (`tx_id`); expired: past `expires_at` unpaid. */
export const checkoutState = z.enum(['open', 'paid', 'expired']);

export const checkoutSession = z.object({
  id: z.number().int(),
  merchant_id: z.number().int(),
  merchant_name: z.string(),
  cart: z.array(cartLine),
  total: z.number().int(),
  currency: currencyCode,
  state: checkoutState,
  expires_at: z.string(),
  success_url: z.string(),
  tx_id: z.string().nullable(),
});

export type CheckoutSession = z.infer<typeof checkoutSession>;

export const checkoutResponse = successEnvelope({ checkout: checkoutSession });
