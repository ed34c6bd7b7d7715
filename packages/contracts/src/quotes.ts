import { z } from 'zod';
import { amountMessages } from './amount-messages.ts';
import { errorEnvelope, successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };
const currencyError = { error: errorCatalogue[errorCodes.currencyMismatch] };

/** The currencies a quote converts between: coins one side, cash the other. */
export const quoteCurrency = z.enum(['USD', 'CAD', 'CON'], currencyError);

const minorUnits = z
  .number({ error: () => amountMessages.invalid() })
  .int(amountMessages.invalid())
  .positive(amountMessages.invalid())
  .max(Number.MAX_SAFE_INTEGER, amountMessages.invalid());

/**
 * POST /api/account/quote: what converting would give. Either `amount_in`
 * (what the person gives, in minor units of `from_currency`) or
 * `amount_out` (what they want, in minor units of `to_currency`), not both.
 * One side is coins (CON), the other USD or CAD.
 */
export const quoteRequest = z
  .object(
    {
      from_currency: quoteCurrency,
      to_currency: quoteCurrency,
      amount_in: minorUnits.optional(),
      amount_out: minorUnits.optional(),
    },
    invalidArguments,
  )
  .superRefine((ask, context) => {
    if ((ask.from_currency === 'CON') === (ask.to_currency === 'CON'))
      context.addIssue({
        code: 'custom',
        path: ['to_currency'],
        message: 'A quote converts between coins (CON) and USD or CAD',
      });
    if ((ask.amount_in === undefined) === (ask.amount_out === undefined))
      context.addIssue({ code: 'custom', path: ['amount_in'], message: 'Give either amount_in or amount_out' });
  });
export type QuoteRequest = z.infer<typeof quoteRequest>;

/**
 * The terms a conversion will use, valid until `expires_at` (about a
 * minute) for the person it was made for, once. `rate` is the coins one
 * unit of the cash side buys, as a decimal ("20" for USD, "15.6" for CAD at
 * 0.78), and `rate_micros` the same in millionths; `usd_rate_micros` is the
 * cash side's exchange rate to the US dollar, in millionths. `fee` is in
 * minor units of `from_currency`: 0 today.
 */
export const quote = z.object({
  quote_id: z.string(),
  from_currency: quoteCurrency,
  to_currency: quoteCurrency,
  amount_in: z.number().int(),
  amount_out: z.number().int(),
  fee: z.number().int(),
  rate: z.string(),
  rate_micros: z.number().int(),
  usd_rate_micros: z.number().int(),
  expires_at: z.string(),
});
export type Quote = z.infer<typeof quote>;

export const quoteResponse = successEnvelope({ quote });

/** A command's optional quote: the id a quote answer gave. */
export const quoteIdField = z.string({ error: 'Please get a new quote' }).min(1).max(64).optional();

/**
 * An expired quote, one used already, or someone else's: 409 with a fresh
 * quote for the same conversion, to show the person before they confirm again.
 */
export const staleQuoteEnvelope = errorEnvelope.extend({ quote });

/** What a card or bank paid or was paid: "Visa •••• 4242", in minor units of `currency`. */
export const funding = z.object({ amount: z.number().int(), currency: z.string(), label: z.string() });
export type Funding = z.infer<typeof funding>;
