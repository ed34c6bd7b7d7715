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
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';

export const PAGE_SIZE = LIST_PAGE_SIZE;

/** The history feature's query keys: every read of it sits under `all`, so a commit reads them all again. */
export const historyKeys = {
  all: ['history'] as const,
  transactions: (filter: TransactionFilter, page: number) =>
    [...historyKeys.all, 'transactions', filter, page] as const,
  ledger: (filter: LedgerFilter, page: number) => [...historyKeys.all, 'ledger', filter, page] as const,
  audit: (txId: string) => [...historyKeys.all, 'audit', txId] as const,
};

export const listTransactions = (filter: TransactionFilter, offset: number, limit = PAGE_SIZE, signal?: AbortSignal) =>
  callApi('/account/transactions', transactionListResponse, {
    body: { ...filter, offset, limit },
    ...(signal ? { signal } : {}),
  });

export const listLedger = (filter: LedgerFilter, offset: number, limit = PAGE_SIZE, signal?: AbortSignal) =>
  callApi('/account/ledger', ledgerListResponse, { body: { ...filter, offset, limit }, ...(signal ? { signal } : {}) });

export const transactionDetails = async (id: string) =>
  (await callApi('/account/transaction-details', transactionDetailsResponse, { body: { id } })).transaction;

/** The coins a transaction moved, for a ledger entry's Details. */
export const useAudit = (txId: string) =>
  useQuery({
    queryKey: historyKeys.audit(txId),
    queryFn: async ({ signal }) =>
      (await callApi('/wallet/list-audit', auditListResponse, { query: { reference_no: txId }, signal })).ledgers,
  });

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
