import type { MerchantFigures, MerchantTransaction, ReportLine, SettlementSummary } from '@peeks/contracts';
import type { Database, LedgerTransactionsTable } from '@peeks/db';
import { isCurrency, walletIdOf, withdrawableAsCash, type Currency } from '@peeks/ledger';
import { maturingCoinsOf } from '@peeks/ledger-store';
import { sql, type Kysely, type Selectable } from 'kysely';
import { counterpartiesOf, presentTransactions, transactionRecordOf } from '../payments/index.ts';

/**
 * The merchant space's read models: queries over `ledger_transactions`
 * (which `ledger:verify` proves equal to a rebuild from the log), each
 * scoped by the merchant's owner id from the start, so another merchant's
 * record is simply not found.
 */

type Row = Selectable<LedgerTransactionsTable>;

/** Transactions as the merchant sees them, with what a sale's returns gave back and who paid, by name. */
export async function merchantViews(
  db: Kysely<Database>,
  rows: readonly Row[],
  merchantOwnerId: string,
): Promise<MerchantTransaction[]> {
  const views = await presentTransactions(db, merchantOwnerId, rows.map(transactionRecordOf));
  return views.map((view, index) => {
    const row = rows[index];
    if (!row) throw new Error('a view without its row');
    return { ...view, reason: row.type === 'return' ? row.reason : null, returned_amount: row.returned_amount };
  });
}

/** One transaction as the merchant sees it. */
export async function merchantView(db: Kysely<Database>, row: Row, merchantOwnerId: string) {
  const [view] = await merchantViews(db, [row], merchantOwnerId);
  if (!view) throw new Error(`${row.tx_id} was not presented`);
  return view;
}

export interface Page {
  offset: number;
  limit: number;
}

/** Payments in and out of the merchant's wallets, newest first. */
export async function transfersOf(db: Kysely<Database>, merchantOwnerId: string, page: Page) {
  const mine = db
    .selectFrom('ledger_transactions')
    .where((eb) => eb.or([eb('payer_owner_id', '=', merchantOwnerId), eb('payee_owner_id', '=', merchantOwnerId)]));
  const [rows, count] = await Promise.all([
    mine.selectAll().orderBy('entry_date', 'desc').orderBy('tx_id').offset(page.offset).limit(page.limit).execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { transactions: await merchantViews(db, rows, merchantOwnerId), total: count.total };
}

/** The merchant's returns, newest first. */
export async function returnsOf(db: Kysely<Database>, merchantOwnerId: string, page: Page) {
  const mine = db
    .selectFrom('ledger_transactions')
    .where('merchant_id', '=', merchantOwnerId)
    .where('type', '=', 'return');
  const [rows, count] = await Promise.all([
    mine.selectAll().orderBy('entry_date', 'desc').orderBy('tx_id').offset(page.offset).limit(page.limit).execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { transactions: await merchantViews(db, rows, merchantOwnerId), total: count.total };
}

/** The merchant's sale `txId`, or undefined when it is not one of theirs. */
export function findSale(db: Kysely<Database>, merchantOwnerId: string, txId: string) {
  return db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('tx_id', '=', txId)
    .where('merchant_id', '=', merchantOwnerId)
    .where('type', '=', 'sale')
    .executeTakeFirst();
}

/** Sales, returns and net per currency, entered in [from, to); a return whose card refund failed gave nothing back. */
export async function figuresBetween(
  db: Kysely<Database>,
  merchantOwnerId: string,
  from: Date,
  to: Date,
): Promise<MerchantFigures[]> {
  const { rows } = await sql<{ currency: string; sales: number; returns: number }>`
    SELECT currency,
      coalesce(sum(amount) FILTER (WHERE type = 'sale'), 0)::int8 AS sales,
      coalesce(sum(amount) FILTER (WHERE type = 'return' AND state <> 'failed'), 0)::int8 AS returns
    FROM ledger_transactions
    WHERE merchant_id = ${merchantOwnerId} AND entry_date >= ${from} AND entry_date < ${to} AND type IN ('sale', 'return')
    GROUP BY currency ORDER BY currency
  `.execute(db);
  return rows.flatMap(({ currency, sales, returns }) =>
    isCurrency(currency) ? [{ currency, sales, returns, net: sales - returns }] : [],
  );
}

/** Sales per UTC day over the `days` days ending with `today`, every day present for each currency sold in. */
export async function dailySales(db: Kysely<Database>, merchantOwnerId: string, today: Date, days: number) {
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
  const { rows } = await sql<{ day: string; currency: string; sales: number }>`
    SELECT to_char(entry_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, sum(amount)::int8 AS sales
    FROM ledger_transactions
    WHERE merchant_id = ${merchantOwnerId} AND type = 'sale' AND entry_date >= ${first}
    GROUP BY 1, 2
  `.execute(db);
  const currencies = [...new Set(rows.map((row) => row.currency))].filter(isCurrency).sort();
  const byKey = new Map(rows.map((row) => [`${row.day}:${row.currency}`, row.sales]));
  return Array.from({ length: days }, (_, index) =>
    new Date(first.getTime() + index * 86_400_000).toISOString().slice(0, 10),
  ).flatMap((date) => currencies.map((currency) => ({ date, currency, sales: byKey.get(`${date}:${currency}`) ?? 0 })));
}

/** Currencies a settlement pays out (impressions are never settled). */
const SETTLED: readonly Currency[] = ['USD', 'CAD', 'CON'];

/** What the next settlement would pay out now: each wallet's withdrawable money, coins a card paid for once matured. */
export async function settleableNow(db: Kysely<Database>, merchantOwnerId: string, now: Date) {
  const [rows, maturing] = await Promise.all([
    settledWallets(db, merchantOwnerId),
    maturingCoinsOf(db, merchantOwnerId, now),
  ]);
  return rows.flatMap((row) => {
    const amount = row.currency === 'CON' ? withdrawableAsCash(row, maturing.amount) : row.withdrawable;
    return isCurrency(row.currency) && amount > 0 ? [{ currency: row.currency, amount }] : [];
  });
}

function settledWallets(db: Kysely<Database>, merchantOwnerId: string) {
  return db
    .selectFrom('wallets')
    .selectAll()
    .where(
      'wallet_id',
      'in',
      SETTLED.map((currency) => walletIdOf(merchantOwnerId, currency)),
    )
    .where('status', '=', 'open')
    .orderBy('currency')
    .execute();
}

/**
 * A batch's payments are the sales and returns that became withdrawable
 * after the batch before it (of the same currency) and by the batch's own
 * time: a sale when its hold was released (or at once without a hold), a
 * return when it was made. The ledger does not tie a sale to a batch, so
 * this is derived from those times.
 */
const paymentsOfBatch = sql<Row>`
  SELECT p.* FROM ledger_transactions p
  WHERE p.merchant_id = s.merchant_id AND p.currency = s.currency AND p.type IN ('sale', 'return')
    AND CASE WHEN p.type = 'sale' AND p.hold_amount IS NOT NULL THEN p.hold_released_at ELSE p.entry_date END <= s.entry_date
    AND CASE WHEN p.type = 'sale' AND p.hold_amount IS NOT NULL THEN p.hold_released_at ELSE p.entry_date END > coalesce((
      SELECT max(b.entry_date) FROM ledger_transactions b
      WHERE b.merchant_id = s.merchant_id AND b.type = 'settlement' AND b.currency = s.currency AND b.entry_date < s.entry_date
    ), '-infinity'::timestamptz)
`;

type SummaryRow = {
  tx_id: string;
  merchant_batch_id: string | null;
  entry_date: Date;
  currency: string;
  amount: number;
  fee: number;
  payments: number;
  sales: number;
  returns: number;
};

function toSummary(row: SummaryRow): SettlementSummary[] {
  if (!isCurrency(row.currency)) return [];
  return [
    {
      tx_id: row.tx_id,
      batch_id: row.merchant_batch_id ?? row.tx_id,
      entry_date: row.entry_date.toISOString(),
      currency: row.currency,
      amount: row.amount,
      fee: row.fee,
      payments: row.payments,
      sales: row.sales,
      returns: row.returns,
    },
  ];
}

function summaries(db: Kysely<Database>, merchantOwnerId: string, where: ReturnType<typeof sql>, page: Page) {
  return sql<SummaryRow>`
    SELECT s.tx_id, s.merchant_batch_id, s.entry_date, s.currency, s.amount, s.fee,
      count(p.tx_id)::int AS payments,
      coalesce(sum(p.amount) FILTER (WHERE p.type = 'sale'), 0)::int8 AS sales,
      coalesce(sum(p.amount) FILTER (WHERE p.type = 'return'), 0)::int8 AS returns
    FROM ledger_transactions s
    LEFT JOIN LATERAL (${paymentsOfBatch}) p ON true
    WHERE s.merchant_id = ${merchantOwnerId} AND s.type = 'settlement' AND ${where}
    GROUP BY s.tx_id
    ORDER BY s.entry_date DESC, s.tx_id
    OFFSET ${page.offset} LIMIT ${page.limit}
  `.execute(db);
}

/** The merchant's settlement batches, newest first, each with its payments' totals. */
export async function settlementsOf(db: Kysely<Database>, merchantOwnerId: string, page: Page) {
  const [{ rows }, count] = await Promise.all([
    summaries(db, merchantOwnerId, sql`true`, page),
    db
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('merchant_id', '=', merchantOwnerId)
      .where('type', '=', 'settlement')
      .executeTakeFirstOrThrow(),
  ]);
  return { settlements: rows.flatMap(toSummary), total: count.total };
}

/** One batch of the merchant's, by its batch id, with its payments; undefined when not theirs. */
export async function settlementOf(db: Kysely<Database>, merchantOwnerId: string, batchId: string) {
  const { rows } = await summaries(db, merchantOwnerId, sql`s.merchant_batch_id = ${batchId}`, {
    offset: 0,
    limit: 1,
  });
  const settlement = rows.flatMap(toSummary)[0];
  if (!settlement) return undefined;
  const payments = await sql<Row>`
    SELECT p.* FROM ledger_transactions s, LATERAL (${paymentsOfBatch}) p
    WHERE s.tx_id = ${settlement.tx_id}
    ORDER BY p.entry_date DESC, p.tx_id
  `.execute(db);
  return { settlement, payments: await merchantViews(db, payments.rows, merchantOwnerId) };
}

/** Sales, returns and settlements entered on the UTC days `from` to `to`, oldest first, and their totals. */
export async function reportOf(db: Kysely<Database>, merchantOwnerId: string, from: string, to: string) {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const rows = await db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('merchant_id', '=', merchantOwnerId)
    .where('type', 'in', ['sale', 'return', 'settlement'])
    .where('entry_date', '>=', start)
    .where('entry_date', '<', end)
    .orderBy('entry_date')
    .orderBy('tx_id')
    .execute();
  const reported = rows.filter(
    (row): row is Row & { currency: Currency; type: ReportLine['type'] } =>
      isCurrency(row.currency) && (row.type === 'sale' || row.type === 'return' || row.type === 'settlement'),
  );
  const counterparties = await counterpartiesOf(db, merchantOwnerId, reported.map(transactionRecordOf));
  const lines: ReportLine[] = reported.map((row, index) => ({
    tx_id: row.tx_id,
    entry_date: row.entry_date.toISOString(),
    type: row.type,
    currency: row.currency,
    amount: row.amount,
    fee: row.fee,
    state: row.state,
    parent_tx_id: row.parent_tx_id,
    reason: row.type === 'return' ? row.reason : null,
    batch_id: row.merchant_batch_id,
    counterparty: counterparties[index] ?? null,
  }));
  const totals = new Map<Currency, MerchantFigures & { settled: number }>();
  for (const line of lines) {
    const total = totals.get(line.currency) ?? { currency: line.currency, sales: 0, returns: 0, net: 0, settled: 0 };
    if (line.type === 'sale') total.sales += line.amount;
    // A return whose card refund failed gave the merchant its money back: listed, but no return.
    if (line.type === 'return' && line.state !== 'failed') total.returns += line.amount;
    if (line.type === 'settlement') total.settled += line.amount;
    total.net = total.sales - total.returns;
    totals.set(line.currency, total);
  }
  return { from, to, totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)), lines };
}

/** The last `limit` sales and returns, newest first: the dashboard's recent payments. */
export async function recentPayments(db: Kysely<Database>, merchantOwnerId: string, limit: number) {
  const rows = await db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('merchant_id', '=', merchantOwnerId)
    .where('type', 'in', ['sale', 'return'])
    .orderBy('entry_date', 'desc')
    .orderBy('tx_id')
    .limit(limit)
    .execute();
  return merchantViews(db, rows, merchantOwnerId);
}
