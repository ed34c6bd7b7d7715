import { z } from 'zod';
import { amountMessages } from './amount-messages.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { positiveId, say } from './fields.ts';
import { paymentMethodMessages } from './form-messages.ts';
import { successEnvelope } from './envelope.ts';
import { quote, quoteIdField } from './quotes.ts';
import { currencyCode, transaction, type Currency } from './transactions.ts';

/**
 * Transfer fund amount (spec §5, §9): up to 500 units of its currency, and
 * more than 0 (the spec's minimum is 0, and an empty transfer sends nothing).
 * On the wire an amount is an integer in minor units (platform §4), so the
 * cap is 500 × the currency's minor units. The ledger enforces the same
 * limit (amountLimits.transfer); a test ties the two together.
 */
export const TRANSFER_MAX_UNITS = 500;
export const transferLimitMinor: Readonly<Record<Currency, number>> = {
  USD: 500_00,
  CAD: 500_00,
  CON: 500_00,
  IMP: 500,
};

/** Minor units in one unit of each currency (platform §4): cents, hundredths of a coin, whole impressions. */
export const minorUnitsPerUnit: Readonly<Record<Currency, number>> = { USD: 100, CAD: 100, CON: 100, IMP: 1 };

/** A whole, positive number of minor units; the upper limit depends on the currency, so the object checks it. */
export function minorAmount(label = 'amount') {
  return z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? amountMessages.missing(label)
          : amountMessages.invalid(label),
    })
    .int(amountMessages.invalid(label))
    .refine((value) => value > 0, {
      error: amountMessages.below(0, label),
      params: { code: errorCodes.amountNotPositive },
    });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds the Transfer fund cap to `schema`'s amount field, in the currency the
 * body names (the schema's default when it names none), named `label` in
 * the message. Checked even while other fields are wrong, as the forms do.
 */
export function withinTransferLimit<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  field: string,
  fallback: Currency,
  label = 'amount',
) {
  // Made once here: a zod schema made per request costs more than the check.
  const currencyOrFallback = currencyCode.catch(fallback);
  return schema.superRefine(
    (value, context) => {
      const amount = value[field];
      const currency = currencyOrFallback.parse(value.currency);
      if (typeof amount === 'number' && amount > transferLimitMinor[currency]) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: amountMessages.above(TRANSFER_MAX_UNITS, label),
          params: { code: errorCodes.amountAboveLimit },
        });
      }
    },
    { when: (payload) => isRecord(payload.value) && typeof payload.value[field] === 'number' },
  );
}

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** A user's global id (users.guser_id), as the Transfer fund page and the QR payload carry it. */
export const guserId = (label: string) =>
  z.uuid({ error: (issue) => (issue.input === undefined ? say.enter(label) : say.valid(label)) });

/** A stored payment method's id, as the pickers send it. */
export const storedMethodId = positiveId(paymentMethodMessages.selectMethod);

/** Memo carried to the ledger: the QR payload's order/sales/ID comment. */
export const paymentComment = z
  .string({ error: say.valid('Comment') })
  .trim()
  .max(100, say.atMost(100, 'Comment'))
  .refine((value) => !/\p{Cc}/u.test(value), say.valid('Comment'));

/**
 * POST /api/account/send-fund (spec §7, platform §7): pay the user with
 * `guser_id` from the caller's wallet, or with the caller's stored card
 * `paymentMethodId` (charged the amount; coins at their cash price in USD). `from_guser_id`, when sent, must be
 * the caller's own. A recipient who belongs to a merchant is paid into the
 * merchant's wallet (a purchase); see features/send-fund.
 */
export const sendFundRequest = withinTransferLimit(
  z.object(
    {
      guser_id: guserId('Recipient'),
      amount: minorAmount(),
      currency: currencyCode.default('CON'),
      from_guser_id: guserId('Sender').optional(),
      comment: paymentComment.optional(),
      /** A stored card of the caller's to charge instead of paying from the wallet. */
      paymentMethodId: storedMethodId.optional(),
      /** A USD or CAD amount paid from coins at this quote (CON to the currency, `amount_out` the amount). */
      quote_id: quoteIdField,
    },
    invalidArguments,
  ),
  'amount',
  'CON',
);

/**
 * A payment's answer (send-fund, checkout/pay): the transaction, and the
 * quote its coins paid a USD or CAD price at (null when nothing was converted).
 */
export const paymentResponse = successEnvelope({ transaction, quote: quote.nullable() });

export type SendFundRequest = z.infer<typeof sendFundRequest>;

/** Transfer fund amount as typed (spec §5): 1 to 10 characters. */
export const TRANSFER_AMOUNT_MAX_CHARS = 10;

/** "12.5" in `currency` as minor units (1250), in whole-number arithmetic; null when it has more decimals than the currency. */
export function typedToMinor(typed: string, currency: Currency): number | null {
  const [whole = '', fraction = ''] = typed.split('.');
  const perUnit = minorUnitsPerUnit[currency];
  const places = String(perUnit).length - 1;
  if (fraction.length > places) return null;
  return Number(whole || '0') * perUnit + Number(fraction.padEnd(places, '0') || '0');
}

const typedAmount = z
  .string({ error: (issue) => (issue.input === undefined ? amountMessages.missing() : amountMessages.invalid()) })
  .trim()
  .min(1, amountMessages.missing())
  .max(TRANSFER_AMOUNT_MAX_CHARS, amountMessages.atMost(TRANSFER_AMOUNT_MAX_CHARS))
  .regex(/^(\d+(\.\d*)?|\.\d+)$/, amountMessages.invalid())
  .refine((value) => Number(value) > 0, amountMessages.below(0))
  .refine((value) => Number(value) <= TRANSFER_MAX_UNITS, amountMessages.above(TRANSFER_MAX_UNITS));

/**
 * The Transfer fund page's amount modal (spec §5 "Transfer fund amount"):
 * the amount typed in units of the chosen currency, above 0 and up to 500,
 * with no more decimals than the currency has. Its output is what
 * send-fund takes: minor units and the currency. The words are those
 * sendFundRequest answers with, so a refusal reads the same either side.
 */
export const transferAmountForm = z
  .object(
    { amount: typedAmount, currency: z.enum(currencyCode.options, { error: say.select('Currency') }) },
    invalidArguments,
  )
  .transform(({ amount, currency }, context) => {
    const minor = typedToMinor(amount, currency);
    if (minor === null) {
      context.addIssue({ code: 'custom', path: ['amount'], message: amountMessages.invalid() });
      return z.NEVER;
    }
    return { amount: minor, currency };
  });

export type TransferAmount = z.output<typeof transferAmountForm>;

/** The message the Transfer fund page shows when the recipient lookup finds nobody. */
export const userNotFoundMessage = errorCatalogue[errorCodes.recipientNotFound];
