import { z } from 'zod';
import { amountMessages } from './amount-messages.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say } from './fields.ts';
import { guserId, paymentComment, typedToMinor, type SendFundRequest } from './payments.ts';
import { currencyCode, type Currency } from './transactions.ts';

/**
 * The QR code a merchant shows at the counter (spec §2 Generate QR code, §7
 * External) and the link a scan opens. One meaning for `amt` everywhere:
 * the amount in units of `cur` as a person types it ("12.5" is twelve
 * dollars fifty), never minor units. See docs/architecture/qr-payload.md.
 */

/** QR generate amount (§5, §9): 1 to 10 characters, 1 to 500. */
export const QR_AMOUNT_RULE = { minChars: 1, maxChars: 10, min: 1, max: 500 } as const;

/** Digits with at most one decimal point, as the Generate QR code field lets them be typed. */
const TYPED_UNITS = /^(\d+(\.\d*)?|\.\d+)$/;

/**
 * A typed amount in its shortest form: no leading zeros, no trailing
 * fractional zeros, no lone point ("007.50" → "7.5", "5." → "5"). Text
 * arithmetic only, so no float ever rounds an amount.
 */
export function canonicalUnits(typed: string): string {
  const [whole = '', fraction = ''] = typed.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  return decimals === '' ? integer : `${integer}.${decimals}`;
}

/** Compares two canonical (or any typed) unit amounts without floats: -1, 0 or 1. */
function compareUnits(left: string, right: string): number {
  const [leftWhole = '0', leftFraction = ''] = canonicalUnits(left).split('.');
  const [rightWhole = '0', rightFraction = ''] = canonicalUnits(right).split('.');
  if (leftWhole.length !== rightWhole.length) return Math.sign(leftWhole.length - rightWhole.length);
  if (leftWhole !== rightWhole) return leftWhole < rightWhole ? -1 : 1;
  const width = Math.max(leftFraction.length, rightFraction.length);
  const [a, b] = [leftFraction.padEnd(width, '0'), rightFraction.padEnd(width, '0')];
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The typed amount of the Generate QR code form, with the Amounts texts of §5; its output is canonical. */
export const qrAmount = z
  .string({ error: (issue) => (issue.input === undefined ? amountMessages.missing() : amountMessages.invalid()) })
  .trim()
  .min(QR_AMOUNT_RULE.minChars, { message: amountMessages.missing(), abort: true })
  .max(QR_AMOUNT_RULE.maxChars, { message: amountMessages.atMost(QR_AMOUNT_RULE.maxChars), abort: true })
  .regex(TYPED_UNITS, { message: amountMessages.invalid(), abort: true })
  .refine((value) => compareUnits(value, String(QR_AMOUNT_RULE.max)) <= 0, {
    message: amountMessages.above(QR_AMOUNT_RULE.max),
    params: { code: errorCodes.amountAboveLimit },
  })
  .refine((value) => compareUnits(value, String(QR_AMOUNT_RULE.min)) >= 0, {
    message: amountMessages.below(QR_AMOUNT_RULE.min),
    params: { code: errorCodes.amountBelowMinimum },
  })
  .transform(canonicalUnits);

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** No more decimals than the currency has (2 for cash and coins, none for impressions). */
function checkDecimals(amount: string, currency: Currency, path: string, context: z.RefinementCtx): void {
  if (typedToMinor(amount, currency) === null)
    context.addIssue({ code: 'custom', path: [path], message: amountMessages.invalid() });
}

/**
 * The Generate QR code form (spec §2, §5 "QR generate amount"): the amount
 * as typed, the currency the merchant takes it in (USD unless chosen, as a
 * scan assumes) and the order/sales/ID comment.
 */
export const qrGenerateForm = z
  .object(
    {
      amount: qrAmount,
      currency: z.enum(currencyCode.options, { error: say.select('Currency') }).default('USD'),
      comment: paymentComment.default(''),
    },
    invalidArguments,
  )
  .superRefine((value, context) => {
    checkDecimals(value.amount, value.currency, 'amount', context);
  });

export type QrGenerateForm = z.output<typeof qrGenerateForm>;

/** A JSON number in a payload made by another client reads as the same typed amount (12.5 is "12.5"). */
const payloadAmount = z
  .union([z.string(), z.number().nonnegative()], {
    error: (issue) => (issue.input === undefined ? amountMessages.missing() : amountMessages.invalid()),
  })
  .transform((value) => String(value))
  .pipe(qrAmount);

/**
 * The QR payload (spec §7 External: `{amt, gid, uid, cur, comment}`): the
 * merchant user's global id `gid` and user id `uid`, the amount `amt` in
 * units of `cur` (1 to 500, as the Generate QR code form takes it), the
 * currency (USD when left out, spec §2 Scan QR code) and the comment.
 */
export const qrPayload = z
  .object(
    {
      amt: payloadAmount,
      gid: guserId('Merchant'),
      uid: z
        .number({ error: say.valid('Merchant') })
        .int(say.valid('Merchant'))
        .positive(say.valid('Merchant')),
      cur: currencyCode.default('USD'),
      comment: paymentComment.default(''),
    },
    invalidArguments,
  )
  .superRefine((value, context) => {
    checkDecimals(value.amt, value.cur, 'amt', context);
  });

export type QrPayload = z.output<typeof qrPayload>;

/** The text a QR image encodes: the payload's JSON, `amt` as a string so no reader turns 0.1 into 0.1000000001. */
export function encodeQrPayload(payload: QrPayload): string {
  const { amt, gid, uid, cur, comment } = payload;
  return JSON.stringify({ amt: canonicalUnits(amt), gid, uid, cur, comment });
}

/** A scanned QR code's text as a payload; null when it is not one (the scanner then offers Scan Again). */
export function readQrPayload(text: string): QrPayload | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const result = qrPayload.safeParse(parsed);
  return result.success ? result.data : null;
}

/**
 * Where a scan goes (spec §2 Scan QR code): /transfer-fund?gid&uid&amt&cur,
 * `amt` in the same units. `amt` is the payload's unless told (0 for a code
 * that names no amount).
 */
export function transferLinkForQr(payload: QrPayload, amt = canonicalUnits(payload.amt)): string {
  const query = new URLSearchParams({
    gid: payload.gid,
    uid: String(payload.uid),
    amt,
    cur: payload.cur,
  });
  if (payload.comment !== '') query.set('comment', payload.comment);
  return `/transfer-fund?${query.toString()}`;
}

/**
 * The link a scanned code opens, or null when it is not a payment. A code
 * that names the merchant but no amount opens the transfer page at 0 for
 * the payer to type (spec §2 Scan QR code: "default amount 0"); every other
 * rule of the payload still holds.
 */
export function transferLinkForScan(text: string): string | null {
  const payload = readQrPayload(text);
  if (payload) return transferLinkForQr(payload);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || 'amt' in parsed) return null;
  // Any valid amount stands in while the rest is checked; the link carries 0.
  const open = qrPayload.safeParse({ ...parsed, amt: '1' });
  return open.success ? transferLinkForQr(open.data, '0') : null;
}

/** Paying a scanned payload is a send-fund to the merchant user it names, in minor units as the API takes them. */
export function sendFundForQr(payload: QrPayload): SendFundRequest {
  const amount = typedToMinor(payload.amt, payload.cur);
  if (amount === null) throw new Error(`QR amount ${payload.amt} does not fit ${payload.cur}`);
  return {
    guser_id: payload.gid,
    amount,
    currency: payload.cur,
    ...(payload.comment === '' ? {} : { comment: payload.comment }),
  };
}
