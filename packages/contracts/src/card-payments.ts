import { z } from 'zod';
import { pinField } from './credentials.ts';
import { amountMessages } from './amount-messages.ts';
import { wholeAmount, type AmountRule } from './deposits.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { positiveId, say } from './fields.ts';
import { paymentMethodMessages } from './form-messages.ts';
import { typedToMinor } from './payments.ts';
import { funding, quote, quoteIdField } from './quotes.ts';
import { transaction } from './transactions.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** Add fund (§5, §9): 1 to 500 of the currency, on the wire in cents. */
export const ADD_FUND_LIMITS = { minMajor: 1, maxMajor: 500 } as const;

/**
 * An amount in minor units, `min` to `max` of them, reported in major units
 * as the form types it. The form's 1 to 3 characters are the same rule as
 * its 1 to 500 value range, so the value range is what the server checks.
 */
export function amountInMinorUnits({ min, max, perMajor }: { min: number; max: number; perMajor: number }) {
  return z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === ''
          ? amountMessages.missing()
          : amountMessages.invalid(),
    })
    .int(amountMessages.invalid())
    .min(min, amountMessages.below(min / perMajor))
    .max(max, amountMessages.above(max / perMajor));
}

/** The Add Fund page's amount as typed (§5): whole units, 1 to 3 characters, 1 to 500. */
export const addFundAmountRule: AmountRule = {
  minChars: 1,
  maxChars: 3,
  min: ADD_FUND_LIMITS.minMajor,
  max: ADD_FUND_LIMITS.maxMajor,
};

const addFundAmount = amountInMinorUnits({
  min: ADD_FUND_LIMITS.minMajor * 100,
  max: ADD_FUND_LIMITS.maxMajor * 100,
  perMajor: 100,
});

/** What a card can be charged in. */
export const cardCurrency = z.enum(['USD', 'CAD'], { error: say.select('Currency') });
const selectedMethod = positiveId(paymentMethodMessages.selectMethod);

/**
 * POST /api/account/purchase: `coin_amt` in hundredths of a coin, a whole
 * number of coins; `currency` is what the card is charged in. The coin
 * limits follow from the cash ones at the rate, so the route checks them.
 * `quote_id`, optional, names the quote the person confirmed (from
 * /api/account/quote, `currency` to CON with `amount_out` = `coin_amt`);
 * without it the current price applies.
 */
export const purchaseRequest = z.object(
  {
    payment_method_id: selectedMethod,
    coin_amt: z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? amountMessages.missing() : amountMessages.invalid(),
      })
      .int(amountMessages.invalid())
      .positive(amountMessages.invalid())
      .max(Number.MAX_SAFE_INTEGER, amountMessages.invalid())
      .refine((coins) => coins % 100 === 0, amountMessages.invalid()),
    currency: cardCurrency.default('USD'),
    quote_id: quoteIdField,
  },
  invalidArguments,
);

/** What a purchase answers: its transaction, the quote it was priced at, and what the card was charged. */
export const purchaseResponse = successEnvelope({ transaction, quote, funding });

/**
 * The Add Fund page's form (§2, §5): an amount in whole units of the card's
 * currency and a stored card. The page turns the amount into coins at the
 * rate and sends a purchase, whose route checks the same limits in coins.
 */
export const addFundForm = z.object(
  { amount: wholeAmount(addFundAmountRule), payment_method_id: selectedMethod },
  invalidArguments,
);

/**
 * The coins, in CON minor units, that `units` whole units of the rate's
 * currency buy: floor(units × coin_micros_per_unit / 1000000) whole coins
 * (spec §9: 20 coins per unit times the rate), in integers only.
 */
export function coinsBoughtWith(units: number, rate: { coin_micros_per_unit: number }): number {
  return Math.floor((units * rate.coin_micros_per_unit) / 1_000_000) * 100;
}

/** POST /api/account/deposit-fund: the Add Fund page, in cents of `currency`. */
export const depositFundRequest = z.object(
  { amount: addFundAmount, currency: cardCurrency.default('USD'), paymentMethodId: selectedMethod },
  invalidArguments,
);

/** POST /api/account/withdraw: to a stored card or bank account; `amount` in minor units of `currency`. */
export const withdrawRequest = z.object(
  {
    amount: z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? amountMessages.missing() : amountMessages.invalid(),
      })
      .int(amountMessages.invalid())
      .positive(amountMessages.invalid())
      .max(Number.MAX_SAFE_INTEGER, amountMessages.invalid()),
    currency: z.enum(['USD', 'CAD', 'CON'], { error: say.select('Currency') }),
    paymentMethodId: selectedMethod,
    /** Needed once the user has set a PIN; a user without one withdraws as before. */
    pin: pinField().optional(),
    /** Coins are paid out as cash: in this currency (USD unless given); ignored for a USD or CAD withdrawal. */
    payout_currency: cardCurrency.optional(),
    /** The quote (CON to `payout_currency`, `amount_in` = `amount`) the person confirmed, for a coin withdrawal. */
    quote_id: quoteIdField,
  },
  invalidArguments,
);

/**
 * What a withdrawal answers: its transaction, the cash to be paid out and
 * where ("Visa •••• 4242"), and for coins the quote that priced them.
 */
export const withdrawResponse = successEnvelope({ transaction, quote: quote.nullable(), payout: funding });

/**
 * The Withdraw Funds dialog's form: the amount as typed in units of the
 * currency, the destination as its select gives it, the PIN empty when the
 * user has none. Its output is withdrawRequest's body, checked by that same
 * schema, so the dialog and the route refuse in the same words.
 */
export const withdrawForm = z
  .object(
    {
      amount: z
        .string({ error: amountMessages.missing() })
        .trim()
        .min(1, amountMessages.missing())
        .regex(/^(\d{1,12}(\.\d*)?|\.\d+)$/, amountMessages.invalid()),
      currency: withdrawRequest.shape.currency,
      paymentMethodId: z
        .string({ error: paymentMethodMessages.selectMethod })
        .regex(/^[1-9]\d{0,15}$/, paymentMethodMessages.selectMethod),
      pin: z.string().optional(),
      /** For coins: the cash they are paid out in. */
      payout_currency: withdrawRequest.shape.payout_currency,
    },
    invalidArguments,
  )
  .transform(({ amount, currency, paymentMethodId, pin, payout_currency }, context) => {
    const minor = typedToMinor(amount, currency);
    if (minor === null) {
      context.addIssue({ code: 'custom', path: ['amount'], message: amountMessages.invalid() });
      return z.NEVER;
    }
    const checked = withdrawRequest.safeParse({
      amount: minor,
      currency,
      paymentMethodId: Number(paymentMethodId),
      ...(pin ? { pin } : {}),
      ...(currency === 'CON' && payout_currency ? { payout_currency } : {}),
    });
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues)
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
export type WithdrawRequest = z.infer<typeof withdrawRequest>;

export const depositFundResponse = successEnvelope({ message: z.string(), transaction });

export type PurchaseRequest = z.infer<typeof purchaseRequest>;
export type AddFundForm = z.infer<typeof addFundForm>;
