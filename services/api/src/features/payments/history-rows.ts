import type { HistoryCounterparty, HistoryFunding, TransactionView } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import {
  conversionOf,
  counterpartyOwnerOf,
  currencies,
  ledgerEntriesOf,
  outsideMoneyOf,
  ownerOf,
  transactionStream,
  walletChangeOf,
  walletIdOf,
  type DepositMethod,
  type OutsideMoney,
  type StoredPosting,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import type { LedgerOutcome } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { transactionView, type RowFacts } from './transaction-view.ts';

/**
 * History rows: transactions as their viewer sees them, with what the
 * ledger's postings did to the viewer's wallet, the card or account
 * outside it, and who was on the other side, by name. A page of rows costs
 * two round trips, whatever its length.
 */

const depositMethodLabels: Record<DepositMethod, string> = {
  interac: 'Interac e-Transfer',
  zelle: 'Zelle',
  bitcoin: 'Bitcoin',
};

const brandNames: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const lastFour = (value: unknown) => text(value).slice(-4);

/** "Visa •••• 4242", "Bank •••• 6789": never more of the number than its last four. */
function paymentMethodLabel(type: string, details: Record<string, unknown>): string {
  if (type === 'CC') return `${brandNames[text(details.card_brand)] ?? 'Card'} •••• ${lastFour(details.card_mask)}`;
  return `${type === 'WIRE' ? 'Wire' : 'Bank'} •••• ${lastFour(details.account_no)}`;
}

async function postingsOf(db: Kysely<Database>, viewerOwnerId: string, txIds: string[]) {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['tx_id', 'account_id', 'currency', 'amount', 'debit_credit'])
    .where('tx_id', 'in', txIds)
    .where(
      'account_id',
      'in',
      currencies.map((currency) => walletIdOf(viewerOwnerId, currency)),
    )
    .execute();
  const byTx = new Map<string, StoredPosting[]>();
  for (const row of rows) {
    const postings = byTx.get(row.tx_id) ?? [];
    postings.push({
      accountId: row.account_id,
      currency: row.currency,
      amount: row.amount,
      debitCredit: row.debit_credit,
    });
    byTx.set(row.tx_id, postings);
  }
  return byTx;
}

async function openingsOf(db: Kysely<Database>, txIds: string[]) {
  const rows = await db
    .selectFrom('events')
    .select(['stream_id', 'type', 'data'])
    .where(
      'stream_id',
      'in',
      txIds.map((txId) => transactionStream(txId)),
    )
    .where('stream_version', '=', 1)
    .execute();
  return new Map(rows.map((row) => [row.stream_id, { type: row.type, data: row.data } as TransactionEvent]));
}

async function returnsOfSales(db: Kysely<Database>, saleTxIds: string[]) {
  if (saleTxIds.length === 0) return new Map<string, { returnedAmount: number; returnDate: string | null }>();
  const rows = await db
    .selectFrom('ledger_transactions')
    .select(['tx_id', 'returned_amount', 'return_date'])
    .where('tx_id', 'in', saleTxIds)
    .execute();
  return new Map(
    rows.map((row) => [
      row.tx_id,
      { returnedAmount: row.returned_amount, returnDate: row.return_date?.toISOString() ?? null },
    ]),
  );
}

async function methodLabels(db: Kysely<Database>, outside: OutsideMoney[]) {
  const ids = [
    ...new Set(
      outside.flatMap((money) =>
        'paymentMethodId' in money.source && /^\d{1,9}$/.test(money.source.paymentMethodId)
          ? [Number(money.source.paymentMethodId)]
          : [],
      ),
    ),
  ];
  if (ids.length === 0) return new Map<string, string>();
  // Deleted methods too: the history names the card a payment was charged to.
  const rows = await db
    .selectFrom('payment_methods')
    .select(['payment_method_id', 'type', 'type_specific'])
    .where('payment_method_id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [String(row.payment_method_id), paymentMethodLabel(row.type, row.type_specific)]));
}

async function partiesOf(db: Kysely<Database>, ownerIds: string[]) {
  if (ownerIds.length === 0) return new Map<string, HistoryCounterparty>();
  const owners = ownerIds.flatMap((id) => {
    const owner = ownerOf(id);
    return owner ? [owner] : [];
  });
  const userIds = owners.filter((owner) => owner.kind === 'user').map((owner) => owner.id);
  const merchantIds = owners.filter((owner) => owner.kind === 'merchant').map((owner) => owner.id);
  const [users, merchants] = await Promise.all([
    userIds.length === 0
      ? []
      : db
          .selectFrom('users')
          .select(['user_id', 'username', 'fullname', 'name_first', 'name_last'])
          .where('user_id', 'in', userIds)
          .execute(),
    merchantIds.length === 0
      ? []
      : db.selectFrom('merchants').select(['merchant_id', 'name']).where('merchant_id', 'in', merchantIds).execute(),
  ]);
  const parties = new Map<string, HistoryCounterparty>();
  for (const user of users) parties.set(`user-${user.user_id}`, userParty(user));
  for (const merchant of merchants) parties.set(`merchant-${merchant.merchant_id}`, merchantParty(merchant.name));
  return parties;
}

/** A person as the other side of a transaction: their full name, else first and last, else their username. */
export function userParty(user: {
  username: string;
  fullname: string | null;
  name_first: string | null;
  name_last: string | null;
}): HistoryCounterparty {
  const named = user.fullname?.trim() || [user.name_first, user.name_last].filter(Boolean).join(' ').trim();
  return { kind: 'user', name: named || user.username, username: user.username };
}

export const merchantParty = (name: string): HistoryCounterparty => ({ kind: 'merchant', name, username: null });

/** Who was on the other side of each transaction from `viewerOwnerId`, by name, in the order given. */
export async function counterpartiesOf(
  db: Kysely<Database>,
  viewerOwnerId: string,
  records: readonly TransactionRecord[],
): Promise<(HistoryCounterparty | null)[]> {
  const others = records.map((record) => counterpartyOwnerOf(record, viewerOwnerId));
  const parties = await partiesOf(db, [...new Set(others.flatMap((other) => other ?? []))]);
  return others.map((other) => (other === null ? null : (parties.get(other) ?? null)));
}

/** A transaction's opening event and every posting it has made so far, when the caller holds them already. */
interface KnownStream {
  opening: TransactionEvent;
  postings: StoredPosting[];
}

/** What the caller of `present` holds already, so it is not read again. */
interface Known {
  /** The one record's stream, or null to read it. */
  stream: KnownStream | null;
  /** Counterparties by owner id. */
  parties: ReadonlyMap<string, HistoryCounterparty>;
}

/** Transactions as `viewerOwnerId` sees them, in the order given. */
export function presentTransactions(
  db: Kysely<Database>,
  viewerOwnerId: string,
  records: readonly TransactionRecord[],
): Promise<TransactionView[]> {
  return present(db, viewerOwnerId, records, noneKnown);
}

const noneKnown: Known = { stream: null, parties: new Map() };

async function present(
  db: Kysely<Database>,
  viewerOwnerId: string,
  records: readonly TransactionRecord[],
  known: Known,
): Promise<TransactionView[]> {
  if (records.length === 0) return [];
  const txIds = records.map((record) => record.txId);
  const sales = records.filter((record) => record.type === 'sale').map((record) => record.txId);
  const [postings, openings, returns] = await Promise.all([
    known.stream && txIds.length === 1
      ? new Map([[txIds[0] ?? '', known.stream.postings]])
      : postingsOf(db, viewerOwnerId, txIds),
    known.stream && txIds.length === 1
      ? new Map([[transactionStream(txIds[0] ?? ''), known.stream.opening]])
      : openingsOf(db, txIds),
    returnsOfSales(db, sales),
  ]);
  const outside = new Map<string, OutsideMoney>();
  for (const record of records) {
    const opening = openings.get(transactionStream(record.txId));
    const money = opening ? outsideMoneyOf(opening, viewerOwnerId) : null;
    if (money) outside.set(record.txId, money);
  }
  const others = records.flatMap((record) => counterpartyOwnerOf(record, viewerOwnerId) ?? []);
  const [labels, read] = await Promise.all([
    methodLabels(db, [...outside.values()]),
    partiesOf(db, [...new Set(others.filter((other) => !known.parties.has(other)))]),
  ]);
  const parties = known.parties.size === 0 ? read : new Map([...known.parties, ...read]);

  return records.map((record) => {
    const opening = openings.get(transactionStream(record.txId));
    const money = outside.get(record.txId);
    const other = counterpartyOwnerOf(record, viewerOwnerId);
    const conversion = opening ? conversionOf(opening) : null;
    // A cash price its payer paid from coins moved their CON wallet, and its return gives coins back to that wallet:
    // their row is in coins, so it adds up to that balance.
    const paidInCoins =
      conversion?.from === 'CON' && record.payerOwnerId === viewerOwnerId
        ? { amount: conversion.amountIn, currency: conversion.from }
        : conversion?.to === 'CON' && record.type === 'return' && record.payeeOwnerId === viewerOwnerId
          ? { amount: conversion.amountOut, currency: conversion.to }
          : null;
    const facts: RowFacts = {
      walletChange: walletChangeOf(
        postings.get(record.txId) ?? [],
        viewerOwnerId,
        paidInCoins?.currency ?? record.currency,
      ),
      paidInCoins,
      funding: money ? fundingOf(money, labels) : null,
      counterparty: other === null ? null : (parties.get(other) ?? null),
      quote: conversion && {
        quote_id: conversion.quoteId,
        from_currency: conversion.from,
        to_currency: conversion.to,
        rate: conversion.rate,
        amount_in: conversion.amountIn,
        amount_out: conversion.amountOut,
        fee: conversion.fee,
      },
    };
    return transactionView(record, viewerOwnerId, returns.get(record.txId), facts);
  });
}

function fundingOf(money: OutsideMoney, labels: Map<string, string>): HistoryFunding {
  const label =
    'depositMethod' in money.source
      ? depositMethodLabels[money.source.depositMethod]
      : (labels.get(money.source.paymentMethodId) ?? 'Card');
  return { amount: money.amount, currency: money.currency, label };
}

/** One transaction as `viewerOwnerId` sees it. */
export async function presentTransaction(
  db: Kysely<Database>,
  viewerOwnerId: string,
  record: TransactionRecord,
): Promise<TransactionView> {
  const [view] = await present(db, viewerOwnerId, [record], noneKnown);
  if (!view) throw new Error(`${record.txId} was not presented`);
  return view;
}

/**
 * What a command just did, as `viewerOwnerId` sees it. A transaction the
 * command opened is shown from the events it wrote (they hold its opening
 * and all its postings), which saves two reads a payment; a replay, or a
 * command on an older transaction, is read back as presentTransaction does.
 * A counterparty in `parties` is not read either.
 */
export async function presentOutcome(
  db: Kysely<Database>,
  viewerOwnerId: string,
  outcome: LedgerOutcome,
  /** The other side as the caller has just read it (a payee with its name), by owner id. */
  parties: ReadonlyMap<string, HistoryCounterparty> = noneKnown.parties,
): Promise<TransactionView> {
  const { record } = outcome;
  const stream = outcome.replayed ? null : streamOpened(outcome);
  const [view] = await present(db, viewerOwnerId, [record], { stream, parties });
  if (!view) throw new Error(`${record.txId} was not presented`);
  return view;
}

/** The opening and postings of a transaction whose whole stream is in `outcome.events`, else null. */
function streamOpened({ record, events }: LedgerOutcome): KnownStream | null {
  const stream = transactionStream(record.txId);
  const [first] = events;
  if (first?.streamId !== stream || first.streamVersion !== 1) return null;
  const postings: StoredPosting[] = [];
  for (const event of events) {
    if (event.streamId !== stream) return null;
    const entries = ledgerEntriesOf(event as unknown as TransactionEvent, event.createdAt);
    for (const { accountId, currency, amount, debitCredit } of entries)
      postings.push({ accountId, currency, amount, debitCredit });
  }
  return { opening: { type: first.type, data: first.data } as unknown as TransactionEvent, postings };
}
