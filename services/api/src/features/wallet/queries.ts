import type { AuditEntry, Balance, LedgerEntry } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { currencies, personalAuditLine, walletIdOf, type Currency, type TransactionRecord } from '@peeks/ledger';
import { maturingCoinsOf, transactionAudit, walletsOf } from '@peeks/ledger-store';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { LedgerEntriesTable } from '@peeks/db';
import { transactionRecordOf } from '../payments/index.ts';
import { balanceOf } from './money-views.ts';

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

/** The two histories, postings and transactions: each row has a type, an entry date and a transaction id. */
type History = 'ledger_entries' | 'ledger_transactions';

/**
 * One page of a history and how many rows match in all: the owner's rows
 * (`mine`) narrowed by the filters both histories share, the type, the UTC
 * days and a search for the start of a transaction id or what `alsoFound`
 * finds, in the order `newestFirst` gives them.
 */
async function historyPage<Table extends History, Row>(
  mine: SelectQueryBuilder<Database, Table, object>,
  page: Page & HistoryFilter,
  alsoFound: (eb: ExpressionBuilder<Database, Table>, search: string) => Expression<SqlBool>,
  newestFirst: (matching: SelectQueryBuilder<Database, Table, object>) => SelectQueryBuilder<Database, Table, Row>,
): Promise<{ rows: Row[]; total: number }> {
  // Kysely types a compared value only for a named table; both tables' type and entry_date are alike.
  let either = mine as SelectQueryBuilder<Database, History, object>;
  if (page.type) either = either.where('type', '=', page.type);
  if (page.from) either = either.where('entry_date', '>=', startOfDay(page.from));
  if (page.to) either = either.where('entry_date', '<', endOfDay(page.to));
  let matching = either as SelectQueryBuilder<Database, Table, object>;
  const search = page.search;
  if (search) {
    matching = matching.where((eb) =>
      eb.or([eb(eb.fn('starts_with', ['tx_id', eb.val(search)]), '=', true), alsoFound(eb, search)]),
    );
  }
  const [rows, count] = await Promise.all([
    newestFirst(matching).offset(page.offset).limit(page.limit).execute(),
    matching.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** The postings to an owner's wallets, newest first (ledger ids are event position '.' index, so that is the order). */
export async function ledgerPage(
  db: Kysely<Database>,
  ownerId: string,
  page: Page & HistoryFilter,
): Promise<{ ledgers: LedgerEntry[]; total: number }> {
  // A currency is one wallet, so the account index narrows it; a date range has its own index (migration 0160).
  const wallets = page.currency ? [walletIdOf(ownerId, page.currency)] : walletIdsOf(ownerId);
  const { rows, total } = await historyPage(
    db.selectFrom('ledger_entries').where('account_id', 'in', wallets),
    page,
    (eb, search) => eb(eb.fn('starts_with', ['ledger_id', eb.val(search)]), '=', true),
    (matching) =>
      matching
        .select(entryColumns)
        .orderBy('event_position', 'desc')
        .orderBy(sql`split_part(ledger_id, '.', 2)::int`, 'desc'),
  );
  return { ledgers: rows.map(entryOf), total };
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
  if (page.currency) mine = mine.where('currency', '=', page.currency);
  const { rows, total } = await historyPage(
    mine,
    page,
    (eb, search) => eb(eb.fn('strpos', [eb.fn('lower', ['reference']), eb.fn('lower', [eb.val(search)])]), '>', 0),
    (matching) =>
      matching
        .selectAll()
        .orderBy('entry_date', 'desc')
        .orderBy(sql`tx_id COLLATE "C"`, 'desc'),
  );
  return { records: rows.map(transactionRecordOf), total };
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

/**
 * The coin audit of a transaction the owner is a party to, as they may see
 * it (their own serials only: personalAuditLine); null for any other.
 */
export async function auditOf(db: Kysely<Database>, ownerId: string, txId: string): Promise<AuditEntry[] | null> {
  if (!(await findTransaction(db, ownerId, txId))) return null;
  const steps = await transactionAudit(db, txId);
  return steps.map((step) => {
    const seen = personalAuditLine(
      { serial: step.serial, fromAccount: step.from_account, toAccount: step.to_account, value: step.value },
      ownerId,
    );
    return {
      from_serial: seen.fromSerial,
      from_another_wallet: seen.fromAnotherWallet,
      action: step.action,
      entry_date: step.entry_date.toISOString(),
    };
  });
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

/**
 * The spec's Balance of `ownerId` at `now`, with when the coin wallet's next
 * hold releases: the hold on money from others, or coins bought by card
 * maturing, whichever comes first.
 */
export async function balanceNow(db: Kysely<Database>, ownerId: string, now: Date): Promise<Balance> {
  const [wallets, nextRelease, cardFunds] = await Promise.all([
    walletsOf(db, ownerId),
    nextHoldRelease(db, ownerId, 'CON'),
    maturingCoinsOf(db, ownerId, now),
  ]);
  const releases = [nextRelease, cardFunds.releaseAt].filter((at) => at !== null).sort();
  return {
    ...balanceOf(wallets, cardFunds.amount),
    next_hold_release_at: releases[0] ?? null,
    card_funds_on_hold: cardFunds.amount,
    card_funds_release_at: cardFunds.releaseAt,
  };
}
