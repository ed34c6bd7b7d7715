import { transactionStates, transactionTypes } from '@peeks/ledger/words';
import { z } from 'zod';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { hasControlCharacter, say } from './fields.ts';
import { currencyCode } from './transactions.ts';
import { LIST_PAGE_MAX, LIST_PAGE_SIZE } from './wallet.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };
const OFFSET_MAX = 1_000_000;

/** The kinds of transaction the ledger writes (spec §3 Transaction `type`): the ledger's own list. */
export { transactionStates, transactionTypes };

// A form's "all" choice and an untouched date are empty strings: the same as not filtering.
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const isCalendarDay = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** A calendar day, YYYY-MM-DD (what `<input type="date">` gives), read as a UTC day. */
const day = (label: string) =>
  z.preprocess(
    blankIsUnset,
    z
      .string({ error: say.valid(label) })
      .regex(/^\d{4}-\d{2}-\d{2}$/, say.valid(label))
      .refine(isCalendarDay, say.valid(label))
      .optional(),
  );

const commonFilters = {
  currency: z.preprocess(blankIsUnset, z.enum(currencyCode.options, { error: say.select('currency') }).optional()),
  from: day('from date'),
  to: day('to date'),
  /** A transaction id (or its start), or words of its reference. */
  search: z.preprocess(
    blankIsUnset,
    z
      .string({ error: say.valid('search') })
      .trim()
      .max(100, say.atMost(100, 'search'))
      .refine((value) => !hasControlCharacter(value), say.valid('search'))
      .optional(),
  ),
};

export const DATE_ORDER_MESSAGE = 'The to date must not be before the from date';

/** A range whose end comes before its start finds nothing; it is a mistake to point out instead. */
const fromNotAfterTo = (value: { from?: string | undefined; to?: string | undefined }, context: z.RefinementCtx) => {
  if (value.from && value.to && value.from > value.to) {
    context.addIssue({ code: 'custom', message: DATE_ORDER_MESSAGE, path: ['to'] });
  }
};

const transactionType = z.preprocess(blankIsUnset, z.enum(transactionTypes, { error: say.select('type') }).optional());
/** Ledger codes are open-ended (an unknown one shows raw, spec §4): any code-shaped value filters. */
const ledgerType = z.preprocess(
  blankIsUnset,
  z
    .string({ error: say.select('type') })
    .regex(/^[A-Z][A-Z0-9_]{0,39}$/, say.select('type'))
    .optional(),
);

/** The /transaction screen's Transactions filters, the form's and POST /api/account/transactions' alike. */
export const transactionFilter = z
  .object({ type: transactionType, ...commonFilters }, invalidArguments)
  .superRefine(fromNotAfterTo);
export type TransactionFilter = z.infer<typeof transactionFilter>;

/** The Ledger tab's filters, the form's and POST /api/account/ledger's alike. */
export const ledgerFilter = z
  .object({ type: ledgerType, ...commonFilters }, invalidArguments)
  .superRefine(fromNotAfterTo);
export type LedgerFilter = z.infer<typeof ledgerFilter>;

const pageNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: say.valid(label) })
    .int(say.valid(label))
    .min(min, say.valid(label))
    .max(max, say.valid(label));

const page = {
  offset: pageNumber('offset', 0, OFFSET_MAX).default(0),
  limit: pageNumber('limit', 1, LIST_PAGE_MAX).default(LIST_PAGE_SIZE),
};

/** POST /api/account/transactions: a page (`offset, limit`, 0 and 15) of what the filters let through; no body is the first page of everything. */
export const transactionListRequest = z.preprocess(
  (body) => body ?? {},
  z.object({ ...page, type: transactionType, ...commonFilters }, invalidArguments).superRefine(fromNotAfterTo),
);
export type TransactionListRequest = z.infer<typeof transactionListRequest>;

/** POST /api/account/ledger: the same for ledger entries, `type` a ledger code (P2P_SENT, DEP_CC, ...). */
export const ledgerListRequest = z.preprocess(
  (body) => body ?? {},
  z.object({ ...page, type: ledgerType, ...commonFilters }, invalidArguments).superRefine(fromNotAfterTo),
);
export type LedgerListRequest = z.infer<typeof ledgerListRequest>;
