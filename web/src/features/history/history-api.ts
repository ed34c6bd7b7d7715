import {
  auditListResponse,
  LIST_PAGE_MAX,
  LIST_PAGE_SIZE,
  ledgerListResponse,
  transactionDetailsResponse,
  transactionListResponse,
  type LedgerEntry,
  type LedgerFilter,
  type TransactionFilter,
  type TransactionView,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

export const PAGE_SIZE = LIST_PAGE_SIZE;

export const listTransactions = (filter: TransactionFilter, offset: number, limit = PAGE_SIZE) =>
  callApi('/account/transactions', transactionListResponse, { body: { ...filter, offset, limit } });

export const listLedger = (filter: LedgerFilter, offset: number, limit = PAGE_SIZE) =>
  callApi('/account/ledger', ledgerListResponse, { body: { ...filter, offset, limit } });

export const transactionDetails = async (id: string) =>
  (await callApi('/account/transaction-details', transactionDetailsResponse, { body: { id } })).transaction;

export const auditOf = async (txId: string) =>
  (await callApi('/wallet/list-audit', auditListResponse, { query: { reference_no: txId } })).ledgers;

/** Every record the filters let through, a hundred at a time, for the CSV export. */
export async function everyTransaction(filter: TransactionFilter): Promise<TransactionView[]> {
  const all: TransactionView[] = [];
  for (;;) {
    const page = await listTransactions(filter, all.length, LIST_PAGE_MAX);
    all.push(...page.transactions);
    if (page.transactions.length === 0 || all.length >= page.total) return all;
  }
}

export async function everyLedgerEntry(filter: LedgerFilter): Promise<LedgerEntry[]> {
  const all: LedgerEntry[] = [];
  for (;;) {
    const page = await listLedger(filter, all.length, LIST_PAGE_MAX);
    all.push(...page.ledgers);
    if (page.ledgers.length === 0 || all.length >= page.total) return all;
  }
}
