import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say, text } from './fields.ts';
import { amountMessages } from './amount-messages.ts';
import { minorAmount, typedToMinor } from './payments.ts';
import { currencyCode, historyCounterparty, transaction } from './transactions.ts';

/**
 * The merchant's own space (issue 27): returns, and the read models behind
 * the sidebar's Merchant Dashboard, Transfers, Returns, Settlements and
 * Reports. Every call acts for the session's current merchant.
 */

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

export const RETURN_REASON_MAX = 256;

/** POST /api/merchant/return-sale: give back `amount` (minor units of the sale's currency) of a sale, with a reason. */
export const returnSaleRequest = z.object(
  {
    tx_id: text('Transaction', { max: 128 }),
    amount: minorAmount('Amount'),
    reason: text('Reason', { max: RETURN_REASON_MAX }),
  },
  invalidArguments,
);
export type ReturnSaleRequest = z.infer<typeof returnSaleRequest>;

/**
 * The Return dialog's form: the amount typed in units of the sale's
 * currency, and the reason. Its output is the request above, so the dialog
 * and the route check the same rules in the same words.
 */
export const returnSaleForm = z
  .object(
    {
      tx_id: returnSaleRequest.shape.tx_id,
      currency: currencyCode,
      amount: z
        .string({ error: () => amountMessages.missing('Amount') })
        .trim()
        .min(1, amountMessages.missing('Amount'))
        .regex(/^(\d{1,12}(\.\d*)?|\.\d+)$/, amountMessages.invalid('Amount')),
      reason: returnSaleRequest.shape.reason,
    },
    invalidArguments,
  )
  .transform(({ tx_id, currency, amount, reason }, context) => {
    const minor = typedToMinor(amount, currency);
    if (minor === null || minor <= 0) {
      context.addIssue({ code: 'custom', path: ['amount'], message: amountMessages.invalid('Amount') });
      return z.NEVER;
    }
    return { tx_id, amount: minor, reason };
  });

const MERCHANT_PAGE_MAX = 100;
export const MERCHANT_PAGE_SIZE = 25;

/** A query string number (query values are text), 0 to `max`. */
const queryNumber = (label: string, max: number) =>
  z
    .string({ error: say.valid(label) })
    .regex(/^\d{1,7}$/, say.valid(label))
    .transform(Number)
    .refine((value) => value <= max, say.valid(label));

/** GET lists of the merchant space: `offset` and `limit` (1 to 100, 25 when left out). */
export const merchantPageQuery = z.object(
  {
    offset: queryNumber('offset', 1_000_000).default(0),
    limit: queryNumber('limit', MERCHANT_PAGE_MAX)
      .refine((value) => value >= 1, say.valid('limit'))
      .default(MERCHANT_PAGE_SIZE),
  },
  invalidArguments,
);

const isoDay = (label: string) =>
  z
    .string({ error: say.valid(label) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, say.valid(label))
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), say.valid(label));

/** A period of whole UTC days, `from` to `to` inclusive, at most a year and a day. */
export const REPORT_DAYS_MAX = 366;
export const reportQuery = z
  .object({ from: isoDay('From'), to: isoDay('To') }, invalidArguments)
  .refine(({ from, to }) => from <= to, { error: 'From must not be after To', path: ['to'] })
  .refine(
    ({ from, to }) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 < REPORT_DAYS_MAX,
    { error: `A report covers at most ${REPORT_DAYS_MAX} days`, path: ['to'] },
  );
export type ReportQuery = z.infer<typeof reportQuery>;

/** GET /api/merchant/settlement?batch_id */
export const settlementQuery = z.object({ batch_id: text('Batch', { max: 128 }) }, invalidArguments);

/** A transaction as the merchant sees it: with a return's reason, and what a sale's returns gave back. */
export const merchantTransaction = transaction.extend({
  reason: z.string().nullable(),
  returned_amount: z.number().int(),
});
export type MerchantTransaction = z.infer<typeof merchantTransaction>;
export const merchantTransactionResponse = successEnvelope({ transaction: merchantTransaction });

/** Sales, returns and what is left of them, per currency, in minor units. */
export const merchantFigures = z.object({
  currency: currencyCode,
  sales: z.number().int(),
  returns: z.number().int(),
  net: z.number().int(),
});
export type MerchantFigures = z.infer<typeof merchantFigures>;

export const settlementSummary = z.object({
  tx_id: z.string(),
  batch_id: z.string(),
  entry_date: z.string(),
  currency: currencyCode,
  /** What was paid out to the merchant. */
  amount: z.number().int(),
  fee: z.number().int(),
  /** The payments the batch settled: sales and returns that became withdrawable since the batch before. */
  payments: z.number().int(),
  sales: z.number().int(),
  returns: z.number().int(),
});
export type SettlementSummary = z.infer<typeof settlementSummary>;

export const merchantDashboardResponse = successEnvelope({
  /** Today and this month, UTC. */
  today: z.array(merchantFigures),
  month: z.array(merchantFigures),
  /** Sales per UTC day for the last 30 days, oldest first, every day present per currency sold in. */
  daily: z.array(z.object({ date: z.string(), currency: currencyCode, sales: z.number().int() })),
  next_settlement: z.object({
    at: z.string(),
    /** What the merchant's wallets could settle now, per currency. */
    amounts: z.array(z.object({ currency: currencyCode, amount: z.number().int() })),
  }),
  settlements: z.array(settlementSummary),
  recent_payments: z.array(merchantTransaction),
});
export type MerchantDashboard = z.infer<typeof merchantDashboardResponse>;

export const merchantTransactionsResponse = successEnvelope({
  transactions: z.array(merchantTransaction),
  total: z.number().int(),
});

export const settlementsResponse = successEnvelope({
  settlements: z.array(settlementSummary),
  total: z.number().int(),
});

export const settlementResponse = successEnvelope({
  settlement: settlementSummary,
  payments: z.array(merchantTransaction),
});

export const reportLine = z.object({
  tx_id: z.string(),
  entry_date: z.string(),
  type: z.enum(['sale', 'return', 'settlement']),
  currency: currencyCode,
  amount: z.number().int(),
  fee: z.number().int(),
  state: z.string(),
  parent_tx_id: z.string().nullable(),
  reason: z.string().nullable(),
  batch_id: z.string().nullable(),
  /** Who bought or was given back, by name; null for a settlement. */
  counterparty: historyCounterparty.nullable(),
});
export type ReportLine = z.infer<typeof reportLine>;

export const reportResponse = successEnvelope({
  from: z.string(),
  to: z.string(),
  totals: z.array(merchantFigures.extend({ settled: z.number().int() })),
  lines: z.array(reportLine),
});
export type MerchantReport = z.infer<typeof reportResponse>;
