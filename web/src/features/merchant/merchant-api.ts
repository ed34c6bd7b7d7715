import {
  merchantDashboardResponse,
  merchantTransactionsResponse,
  reportResponse,
  settlementResponse,
  settlementsResponse,
  transactionResponse,
  type ReturnSaleRequest,
} from '@peeks/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { session } from '../session/index.ts';

/** The merchant space's calls (issue 27); every one acts for the session's current merchant. */

/** The merchant feature's query keys: each read under the merchant acted for, all of them under `all`. */
export const merchantKeys = {
  all: ['merchant'] as const,
  read: (merchantId: number | null, path: string, query: Record<string, string | number>) =>
    [...merchantKeys.all, merchantId, path, query] as const,
};

/**
 * A read of the merchant space, for the merchant acted for (Switch Merchant
 * reads afresh). A new page or range keeps showing what was there until the
 * new answer arrives.
 */
function useMerchantRead<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  query: Record<string, string | number> = {},
) {
  const merchantId = useSnapshot(session).user?.merchant_id ?? null;
  return useQuery({
    queryKey: merchantKeys.read(merchantId, path, query),
    queryFn: ({ signal }): Promise<z.output<Schema>> => callApi(path, schema, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

/** The dashboard's figures; read again by the screen whenever the live feed says the merchant's money moved. */
export const refreshDashboard = () =>
  queryClient.invalidateQueries({
    queryKey: merchantKeys.all,
    predicate: (query) => query.queryKey[2] === '/merchant/dashboard',
  });

export const useDashboard = () => useMerchantRead('/merchant/dashboard', merchantDashboardResponse);
export const useTransfers = (offset: number) =>
  useMerchantRead('/merchant/transfers', merchantTransactionsResponse, { offset, limit: PAGE });
export const useReturns = (offset: number) =>
  useMerchantRead('/merchant/returns', merchantTransactionsResponse, { offset, limit: PAGE });
export const useSettlements = (offset: number) =>
  useMerchantRead('/merchant/settlements', settlementsResponse, { offset, limit: PAGE });
export const useSettlement = (batchId: string) =>
  useMerchantRead('/merchant/settlement', settlementResponse, { batch_id: batchId });
export const useReport = (from: string, to: string) =>
  useMerchantRead('/merchant/report', reportResponse, { from, to });

export const PAGE = 25;

/** Returns part or all of a sale under the attempt's Idempotency-Key. */
export async function returnSale(request: ReturnSaleRequest, idempotencyKey: string) {
  const { transaction } = await callApi('/merchant/return-sale', transactionResponse, {
    body: request,
    idempotencyKey,
  });
  // The sale's returned amount, the transfers and the figures all changed.
  void queryClient.invalidateQueries({ queryKey: merchantKeys.all });
  return transaction;
}

/** Where the report's CSV is downloaded from. */
export const reportCsvUrl = (from: string, to: string) =>
  `/api/merchant/report.csv?${new URLSearchParams({ from, to }).toString()}`;
