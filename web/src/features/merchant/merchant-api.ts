import {
  merchantDashboardResponse,
  merchantTransactionsResponse,
  reportResponse,
  settlementResponse,
  settlementsResponse,
  transactionResponse,
  type ReturnSaleRequest,
} from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { z } from 'zod';
import { ApiError, callApi } from '../../lib/api.ts';
import { session } from '../session/index.ts';

/** The merchant space's calls (issue 27); every one acts for the session's current merchant. */

export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; errors: readonly string[] };

/**
 * A read of the merchant space, loaded on mount and again when `query`,
 * `refresh` or the merchant acted for (Switch Merchant) change. A reload
 * keeps showing what was there until the new answer arrives.
 */
export function useMerchantRead<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  query?: Record<string, string | number>,
  refresh: unknown = 0,
): Loaded<z.output<Schema>> {
  const merchantId = useSnapshot(session).user?.merchant_id ?? null;
  const [state, setState] = useState<Loaded<z.output<Schema>>>({ status: 'loading' });
  const queryText = JSON.stringify(query ?? {});
  useEffect(() => {
    const controller = new AbortController();
    const params = JSON.parse(queryText) as Record<string, string | number>;
    callApi(path, schema, { signal: controller.signal, query: params })
      .then((data) => {
        setState({ status: 'ready', data });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError) setState({ status: 'failed', errors: error.texts });
      });
    return () => {
      controller.abort();
    };
    // The query is compared by its text: a new object with the same fields is the same read.
  }, [path, schema, queryText, refresh, merchantId]);
  return state;
}

export const useDashboard = (refresh: unknown) =>
  useMerchantRead('/merchant/dashboard', merchantDashboardResponse, undefined, refresh);
export const useTransfers = (offset: number, refresh: unknown) =>
  useMerchantRead('/merchant/transfers', merchantTransactionsResponse, { offset, limit: PAGE }, refresh);
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
export const returnSale = async (request: ReturnSaleRequest, idempotencyKey: string) =>
  (await callApi('/merchant/return-sale', transactionResponse, { body: request, idempotencyKey })).transaction;

/** Where the report's CSV is downloaded from. */
export const reportCsvUrl = (from: string, to: string) =>
  `/api/merchant/report.csv?${new URLSearchParams({ from, to }).toString()}`;
