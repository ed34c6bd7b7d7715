import type { Balance, LedgerEntry } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { currencies, walletIdOf, type Currency, type TransactionRecord } from '@peeks/ledger';
import { transactionAudit, walletsOf } from '@peeks/ledger-store';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { LedgerEntriesTable } from '@peeks/db';
import { balanceOf, transactionRecordOf } from './money-views.ts';

export interface Page {
  offset: number;
  limit: number;
}

/** The history filters (contracts' history.ts), already checked. */
export interface HistoryFilter {
  type?: string | undefined;
  currency?: Currency | undefined;
  /** YYYY-MM-DD, UTC days, both ends included. */
  from?: string | undefined;
  to?: string | undefined;
  search?: string | undefined;
}

const DAY_MS = 86_400_000;
const startOfDay = (day: string) => new Date(`${day}T00:00:00Z`);
const endOfDay = (day: string) => new Date(startOfDay(day).getTime() + DAY_MS);

/** Every wallet id an owner can have: one per currency, derived (they need not be looked up). */
const walletIdsOf = (ownerId: string) => currencies.map((currency) => walletIdOf(ownerId, currency));

const entryOf = (
  row: Pick<
    Selectable<LedgerEntriesTable>,
    'ledger_id' | 'entry_date' | 'type' | 'amount' | 'currency' | 'debit_credit' | 'tx_id'
  >,
): LedgerEntry => ({
  ledger_id: row.ledger_id,
  entry_date: row.entry_date.toISOString(),
  type: row.type,
  amount: row.amount,
  currency: row.currency as Currency,
  debit_credit: row.debit_credit === 'D' ? 'D' : 'C',
  tx_id: row.tx_id,
});

const entryColumns = ['ledger_id', 'entry_date', 'type', 'amount', 'currency', 'debit_credit', 'tx_id'] as const;

/** The postings to an owner's wallets, newest first (ledger ids are event position '.' index, so that is the order). */
export async function ledgerPage(
  db: Kysely<Database>,
  ownerId: string,
  page: Page & HistoryFilter,
): Promise<{ ledgers: LedgerEntry[]; total: number }> {
  // A currency is one wallet, so the account index narrows it; a date range has its own index (migration 0160).
  const wallets = page.currency ? [walletIdOf(ownerId, page.currency)] : walletIdsOf(ownerId);
  let mine = db.selectFrom('ledger_entries').where('account_id', 'in', wallets);
  if (page.type) mine = mine.where('type', '=', page.type);
  if (page.from) mine = mine.where('entry_date', '>=', startOfDay(page.from));
  if (page.to) mine = mine.where('entry_date', '<', endOfDay(page.to));
  const search = page.search;
  if (search) {
    mine = mine.where((eb) =>
      eb.or([
        eb(eb.fn('starts_with', ['tx_id', eb.val(search)]), '=', true),
        eb(eb.fn('starts_with', ['ledger_id', eb.val(search)]), '=', true),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    mine
      .select(entryColumns)
      .orderBy('event_position', 'desc')
      .orderBy(sql`split_part(ledger_id, '.', 2)::int`, 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { ledgers: rows.map(entryOf), total: count.total };
}

/** One posting, if it is to one of the owner's wallets. */
export async function findLedgerEntry(
  db: Kysely<Database>,
  ownerId: string,
  ledgerId: string,
): Promise<LedgerEntry | null> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(entryColumns)
    .where('ledger_id', '=', ledgerId)
    .where('account_id', 'in', walletIdsOf(ownerId))
    .executeTakeFirst();
  return row ? entryOf(row) : null;
}

/** A transaction is the owner's when it paid or was paid by it. */
const partyTo = (ownerId: string) => (eb: ExpressionBuilder<Database, 'ledger_transactions'>) =>
  eb.or([eb('payer_owner_id', '=', ownerId), eb('payee_owner_id', '=', ownerId)]);

/** The owner's transactions, newest first, the id breaking ties so pages never overlap. */
export async function transactionPage(
  db: Kysely<Database>,
  ownerId: string,
  page: Page & HistoryFilter,
): Promise<{ records: TransactionRecord[]; total: number }> {
  // The payer and payee indexes lead with the owner and entry_date; the other filters narrow those rows.
  let mine = db.selectFrom('ledger_transactions').where(partyTo(ownerId));
  if (page.type) mine = mine.where('type', '=', page.type);
  if (page.currency) mine = mine.where('currency', '=', page.currency);
  if (page.from) mine = mine.where('entry_date', '>=', startOfDay(page.from));
  if (page.to) mine = mine.where('entry_date', '<', endOfDay(page.to));
  const search = page.search;
  if (search) {
    mine = mine.where((eb) =>
      eb.or([
        eb(eb.fn('starts_with', ['tx_id', eb.val(search)]), '=', true),
        eb(eb.fn('strpos', [eb.fn('lower', ['reference']), eb.fn('lower', [eb.val(search)])]), '>', 0),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    mine
      .selectAll()
      .orderBy('entry_date', 'desc')
      .orderBy(sql`tx_id COLLATE "C"`, 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { records: rows.map(transactionRecordOf), total: count.total };
}

/** The named transactions the owner is a party to, in the order named; others are left out. */
export async function transactionsNamed(
  db: Kysely<Database>,
  ownerId: string,
  txIds: readonly string[],
): Promise<TransactionRecord[]> {
  if (txIds.length === 0) return [];
  const rows = await db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('tx_id', 'in', txIds)
    .where(partyTo(ownerId))
    .execute();
  const byId = new Map(rows.map((row) => [row.tx_id, transactionRecordOf(row)]));
  return txIds.flatMap((txId) => byId.get(txId) ?? []);
}

/** One transaction, if the owner is a party to it. */
export async function findTransaction(
  db: Kysely<Database>,
  ownerId: string,
  txId: string,
): Promise<TransactionRecord | null> {
  return (await transactionsNamed(db, ownerId, [txId]))[0] ?? null;
}

/** The coin audit of a transaction the owner is a party to; null for any other. */
export async function auditOf(db: Kysely<Database>, ownerId: string, txId: string) {
  if (!(await findTransaction(db, ownerId, txId))) return null;
  const steps = await transactionAudit(db, txId);
  return steps.map((step) => ({
    from_serial: step.from_serial,
    action: step.action,
    entry_date: step.entry_date.toISOString(),
  }));
}

/** When the next of `ownerId`'s holds in `currency` releases, or null with none open (one index range read). */
export async function nextHoldRelease(
  db: Kysely<Database>,
  ownerId: string,
  currency: Currency,
): Promise<string | null> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select('hold_release_at')
    .where('payee_owner_id', '=', ownerId)
    .where('currency', '=', currency)
    .where('hold_released_at', 'is', null)
    .where('hold_release_at', 'is not', null)
    .orderBy('hold_release_at')
    .limit(1)
    .executeTakeFirst();
  return row?.hold_release_at?.toISOString() ?? null;
}

/** The spec's Balance of `ownerId`, with when the coin wallet's next hold releases. */
export async function balanceNow(db: Kysely<Database>, ownerId: string): Promise<Balance> {
  const [wallets, nextRelease] = await Promise.all([walletsOf(db, ownerId), nextHoldRelease(db, ownerId, 'CON')]);
  return { ...balanceOf(wallets), next_hold_release_at: nextRelease };
}
