import { z } from 'zod';
import { nameAndStreetLines } from './accounts.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { paymentMethodMessages } from './form-messages.ts';
import { optionalText, positiveId, postalCodeFits, say, text } from './fields.ts';

/** The payment method codes of spec §9. */
export const paymentMethodTypes = ['CC', 'CHQ', 'WIRE'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** Bank account types (§9): Chequing, Savings, Business Chequing, Business Savings. */
export const bankAccountTypes = ['C', 'S', 'BC', 'BS'] as const;

/** How many years ahead the expiry year list goes (§9: the current year plus 9 more). */
export const EXPIRY_YEARS_AHEAD = 9;

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Digits only, `min` to `max` of them; 'Please enter valid X' for anything but digits. */
export function digits(label: string, { min, max }: { min: number; max: number }) {
  return text(label, { min, max }).regex(/^\d+$/, say.valid(label));
}

/**
 * The spec's card scheme rule (§5, §9): a card token must begin with 4 or
 * fall in 22-27 or 51-55, else 'Payment method not supported'. Tokens keep
 * the card's leading digits, so the rule reads the token.
 */
export function cardTokenSupported(token: string): boolean {
  if (token.startsWith('4')) return true;
  const two = Number(token.slice(0, 2));
  return /^\d{2}/.test(token) && ((two >= 22 && two <= 27) || (two >= 51 && two <= 55));
}

/** Whether a card expiring at the end of `month`/`year` is still good at `now`, and the year is on the form's list. */
export function cardExpiryValid(year: number, month: number, now: Date): boolean {
  const thisYear = now.getUTCFullYear();
  if (month < 1 || month > 12 || year < thisYear || year > thisYear + EXPIRY_YEARS_AHEAD) return false;
  return year > thisYear || month >= now.getUTCMonth() + 1;
}

/**
 * A two-digit month or four-digit year, as the form's selects send it, or
 * the spec's wire form, a number (12, 2028), read as the same digits.
 */
const expiryPart = (label: string, length: 2 | 4, inRange: (value: number) => boolean = () => true) => {
  const missingOrInvalid = {
    error: (issue: { input?: unknown }) => (issue.input === undefined ? say.enter(label) : say.valid(label)),
  };
  return z
    .union(
      [
        z
          .number()
          .int()
          .nonnegative()
          .transform((value) => String(value).padStart(length, '0')),
        z.string(),
      ],
      missingOrInvalid,
    )
    .pipe(
      z
        .string()
        .trim()
        .min(1, say.enter(label))
        .regex(new RegExp(`^\\d{${length}}$`), say.valid(label))
        .transform(Number)
        .refine(inRange, say.valid(label)),
    );
};

// The range check inside the pipe: refined outside it, the document lost the number form.
const expiryMonth = expiryPart('Expiry Month', 2, (month) => month >= 1 && month <= 12);
const expiryYear = expiryPart('Expiry Year', 4);

/** Reports an expiry in the past (or beyond the year list) under the year, as the card form does. */
function expiryInFuture<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  monthField: string,
  yearField: string,
) {
  return schema.superRefine(
    (value, context) => {
      if (!cardExpiryValid(Number(value[yearField]), Number(value[monthField]), new Date())) {
        context.addIssue({ code: 'custom', path: [yearField], message: paymentMethodMessages.expiryYear });
      }
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value[yearField] === 'number' &&
        typeof payload.value[monthField] === 'number',
    },
  );
}

/** Luhn's check digit, which every real card number passes. */
export function luhnValid(cardNumber: string): boolean {
  let sum = 0;
  for (let index = 0; index < cardNumber.length; index += 1) {
    let digit = Number(cardNumber[cardNumber.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** POST /api/sandbox/tokenize: what the tokenizer page sends (spaces in the number are allowed, as typed). */
export const tokenizeRequest = expiryInFuture(
  z.object(
    {
      card_number: z
        .string({
          error: (issue) => (issue.input === undefined ? say.enter('Card Number') : paymentMethodMessages.cardNumber),
        })
        .transform((value) => value.replace(/[\s-]/g, ''))
        .refine((value) => value.length > 0, say.enter('Card Number'))
        .refine((value) => /^\d{12,19}$/.test(value) && luhnValid(value), paymentMethodMessages.cardNumber),
      cvv: digits('CVV', { min: 3, max: 3 }),
      expiry_month: expiryMonth,
      expiry_year: expiryYear,
    },
    invalidArguments,
  ),
  'expiry_month',
  'expiry_year',
);

export const tokenizeResponse = successEnvelope({ token: z.string(), brand: z.string(), mask: z.string() });

/**
 * What the tokenizer page posts to the app's window (to the app's origin
 * only): the token with the card's brand, mask and expiry as chosen, or
 * the refusal of the tokenize call.
 */
export const tokenizerMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('card-token'),
    token: z.string(),
    brand: z.string(),
    mask: z.string(),
    expiry_month: z.string(),
    expiry_year: z.string(),
  }),
  z.object({ type: z.literal('card-token-error'), errors: z.array(z.object({ message: z.string() })) }),
]);

/** GET /api/wallet/payment-provider-lookup?provider= */
export const providerLookupQuery = z.object({ provider: text('provider', { max: 32 }) }, invalidArguments);

/** The card tokenizer's settings (§7: credentials timestamp, domain, authkey); nothing in it is a secret. */
export const providerLookupResponse = successEnvelope({
  detail: z.object({
    provider: z.string(),
    timestamp: z.string(),
    domain: z.string(),
    authkey: z.string(),
    token_type: z.string(),
    tokenizer_url: z.string(),
  }),
});

/** The billing address of a payment method (§3), with the wire and bank form's lengths (§5), which the card form shares. */
const billingFields = {
  ...nameAndStreetLines,
  province: text('Province', { min: 2, max: 64 }),
  postal_code: text('Postal/Zip Code', { min: 4, max: 16 }),
  country: text('Country', { min: 2, max: 4 }).regex(/^[A-Z]+$/, say.select('Country')),
};

/** Canada's format for CA, a US ZIP otherwise (§5), reported under the postal field. */
function postalForCountry<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  postalField: string,
  countryField: string,
) {
  return schema.superRefine(
    (value, context) => {
      const country = String(value[countryField]);
      if (!/^[A-Z]{2,4}$/.test(country))
        context.addIssue({ code: 'custom', path: [postalField], message: paymentMethodMessages.countryFirst });
      else if (!postalCodeFits(country, String(value[postalField])))
        context.addIssue({ code: 'custom', path: [postalField], message: paymentMethodMessages.postalCode });
    },
    {
      when: (payload) =>
        isRecord(payload.value) &&
        typeof payload.value[postalField] === 'string' &&
        typeof payload.value[countryField] === 'string',
    },
  );
}

export const billingAddress = postalForCountry(z.object(billingFields, invalidArguments), 'postal_code', 'country');

/** The shipping address: the billing fields with a shipping_ prefix (§3). */
export const shippingAddress = postalForCountry(
  z.object(
    Object.fromEntries(Object.entries(billingFields).map(([key, field]) => [`shipping_${key}`, field])) as {
      [Key in keyof typeof billingFields as `shipping_${Key}`]: (typeof billingFields)[Key];
    },
    invalidArguments,
  ),
  'shipping_postal_code',
  'shipping_country',
);

const cardDetails = z.object(
  {
    token: z
      .string({ error: paymentMethodMessages.cardNumber })
      .trim()
      .min(1, paymentMethodMessages.cardNumber)
      .max(64, paymentMethodMessages.cardNumber)
      .regex(/^[A-Za-z0-9]+$/, paymentMethodMessages.cardNumber)
      .refine(cardTokenSupported, {
        error: paymentMethodMessages.notSupported,
        params: { code: errorCodes.paymentMethodNotSupported },
      }),
    // The spec names the tokenizer `tokenex`; the sandbox stands in for it, so both are stored as today's `sandbox`.
    token_type: z.enum(['sandbox', 'tokenex'], { error: say.valid('Token Type') }).transform(() => 'sandbox' as const),
    cardholder_name: text('Cardholder Name', { min: 2, max: 64 }),
    card_expiry: expiryInFuture(z.object({ year: expiryYear, month: expiryMonth }, invalidArguments), 'month', 'year'),
  },
  invalidArguments,
);

const bankDetails = z.object(
  {
    account_no: digits('Account Number', { min: 9, max: 32 }),
    cardholder_name: optionalText('Account Holder Name', 64),
    transit_no: digits('Transit Number', { min: 5, max: 5 }).optional(),
    institution_no: digits('Institution Number', { min: 3, max: 3 }).optional(),
    routing_no: digits('Routing Number', { min: 9, max: 9 }).optional(),
    account_type: z.enum(bankAccountTypes, { error: say.select('Account Type') }).optional(),
  },
  invalidArguments,
);

/** The wire bank fields (§5), sent as a JSON string in `instructions` (§3) or as an object. */
export const wireInstructions = postalForCountry(
  z.object(
    {
      bank_name: text('Bank Name', { min: 2, max: 64 }),
      bank_address: text('Bank Address', { min: 2, max: 100 }),
      bank_city: text('Bank City', { min: 2, max: 40 }),
      bank_province: text('Bank Province', { min: 2, max: 64 }),
      bank_postal_code: text('Bank Postal/Zip Code', { min: 4, max: 16 }),
      bank_country: text('Bank Country', { min: 2, max: 4 }).regex(/^[A-Z]+$/, say.select('Bank Country')),
      account_no: text('Account Number', { min: 3, max: 16 }),
      bank_swift_code: text('SWIFT Code', { min: 5, max: 16 }),
      iban_no: text('IBAN', { min: 3, max: 16 }),
      unit_no: digits('Unit Number', { min: 1, max: 16 }),
    },
    invalidArguments,
  ),
  'bank_postal_code',
  'bank_country',
);

const wireDetails = z.object(
  {
    account_no: text('Account Number', { min: 3, max: 16 }),
    instructions: z.preprocess((value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }, wireInstructions),
  },
  invalidArguments,
);

const common = { billing_address: billingAddress, shipping_address: shippingAddress.optional() };

/** Canada's bank fields for CA, the US's otherwise (§4: the bank form shows one set by country). */
export const bankPayMethodRequest = z
  .object({ type: z.literal('CHQ'), ...common, type_specific: bankDetails }, invalidArguments)
  .superRefine((value, context) => {
    const canadian = value.billing_address.country === 'CA';
    const required: [keyof typeof value.type_specific, string][] = canadian
      ? [
          ['transit_no', say.enter('Transit Number')],
          ['institution_no', say.enter('Institution Number')],
        ]
      : [
          ['routing_no', say.enter('Routing Number')],
          ['account_type', say.select('Account Type')],
        ];
    for (const [field, message] of required) {
      if (value.type_specific[field] === undefined)
        context.addIssue({ code: 'custom', path: ['type_specific', field], message, input: undefined });
    }
  });

/** A card by its token: what the Add Credit Card modal sends, and validates with before it does. */
export const cardPayMethodRequest = z.object(
  { type: z.literal('CC'), ...common, type_specific: cardDetails },
  invalidArguments,
);

/** A wire account: its number, and the bank's details as `instructions`. */
export const wirePayMethodRequest = z.object(
  { type: z.literal('WIRE'), ...common, type_specific: wireDetails },
  invalidArguments,
);

/** POST /api/wallet/add-pay-method: a card (by its token), a bank account or a wire account. */
export const addPayMethodRequest = z.discriminatedUnion(
  'type',
  [cardPayMethodRequest, bankPayMethodRequest, wirePayMethodRequest],
  { error: say.select('Payment Method Type') },
);

/** A stored method as the list shows it (§3 Payment method); a card's token and an account's full number are never sent back. */
export const paymentMethod = z.object({
  payment_method_id: z.number().int(),
  paymentMethodId: z.number().int(),
  type: z.enum(paymentMethodTypes),
  state: z.string(),
  validated: z.string(),
  entry_date: z.string(),
  is_default: z.boolean(),
  selected: z.boolean(),
  brand: z.string(),
  number: z.string(),
  icon: z.string(),
  billing_address: z.record(z.string(), z.unknown()),
  shipping_address: z.record(z.string(), z.unknown()).nullable(),
  type_specific: z.record(z.string(), z.unknown()),
});

/** Card brands as people write them. */
const cardBrandNames: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/**
 * How a person knows a stored method, as the API's funding labels name it:
 * "Visa •••• 4242", "Bank •••• 6789", "Wire •••• 7788"; never more than the
 * last four.
 */
export function paymentMethodName(method: Pick<z.infer<typeof paymentMethod>, 'type' | 'brand' | 'number'>): string {
  const lastFour = method.number.slice(-4);
  if (method.type === 'CC') return `${cardBrandNames[method.brand.toLowerCase()] ?? 'Card'} •••• ${lastFour}`;
  return `${method.type === 'WIRE' ? 'Wire' : 'Bank'} •••• ${lastFour}`;
}

export const paymentMethodResponse = successEnvelope({ payment_method: paymentMethod });

/** POST /api/account/pay-method: `user_id` may be sent, and must then be the caller's own. */
export const payMethodListRequest = z
  .object({ user_id: positiveId(say.valid('User')).optional() }, invalidArguments)
  .nullish();
export const payMethodListResponse = successEnvelope({ methods: z.array(paymentMethod), total: z.number().int() });

const paymentMethodId = positiveId(paymentMethodMessages.selectMethod);

/** POST /api/account/user-payment-method-update */
export const updatePayMethodRequest = z.object(
  { paymentMethodId, make_default: z.boolean({ error: say.valid('Make Default') }) },
  invalidArguments,
);
/** POST /api/account/user-payment-method-delete */
export const deletePayMethodRequest = z.object({ paymentMethodId }, invalidArguments);
export const payMethodChangedResponse = successEnvelope({ message: z.string() });

export type AddPayMethodRequest = z.infer<typeof addPayMethodRequest>;
export type CardPayMethodRequest = z.infer<typeof cardPayMethodRequest>;
export type PaymentMethod = z.infer<typeof paymentMethod>;
export type WireInstructions = z.infer<typeof wireInstructions>;
