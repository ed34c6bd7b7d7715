import {
  bitcoinInfoResponse,
  depositCoinsResponse,
  depositListResponse,
  interacDepositResponse,
  zelleDepositResponse,
  BITCOIN_PAYMENT_METHOD,
  type BitcoinQuote,
} from '@peeks/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { useSettled } from '../../lib/quotes.ts';

/** The deposits' query keys: the pending list and the bitcoin rate for an amount, all under `all`. */
export const depositKeys = {
  all: ['deposits'] as const,
  list: () => [...depositKeys.all, 'list'] as const,
  bitcoinInfo: (amount: number) => [...depositKeys.all, 'bitcoin-info', amount] as const,
};

/** A deposit started: the pending list has a new row. */
const started = <T>(answer: T): T => {
  void queryClient.invalidateQueries({ queryKey: depositKeys.list() });
  return answer;
};

/** INTERAC EMT at the quote confirmed (CAD to coins): a pending deposit with its memo, recipient and answer. */
export const startInterac = async (amount: number, quoteId: string, idempotencyKey: string) =>
  started(
    await callApi('/account/deposit-interac', interacDepositResponse, {
      body: { amount, quote_id: quoteId },
      idempotencyKey,
    }),
  );

/** ZELL PAY at the quote confirmed (USD to coins): a pending deposit with its memo and recipient. */
export const startZelle = async (amount: number, quoteId: string, idempotencyKey: string) =>
  started(
    await callApi('/account/deposit-zell', zelleDepositResponse, {
      body: { amount, quote_id: quoteId },
      idempotencyKey,
    }),
  );

/** Bitcoin step 1 for `amount` whole dollars (null: none valid yet): the rate, the bitcoin due and the coins, signed for 15 minutes. */
export function useBitcoinInfo(amount: number | null) {
  const settled = useSettled(amount);
  const query = useQuery({
    queryKey: depositKeys.bitcoinInfo(settled ?? 0),
    enabled: settled !== null,
    queryFn: async ({ signal }) =>
      callApi('/account/get-bitcoin-info', bitcoinInfoResponse, { body: { amount: settled }, signal }),
    // Good until the signature expires; asked afresh after.
    staleTime: (state) => (state.state.data ? new Date(state.state.data.expiresAt).getTime() - Date.now() : 0),
    placeholderData: keepPreviousData,
  });
  return { ...query, info: amount !== null && settled === amount && !query.isPlaceholderData ? query.data : undefined };
}

/** Bitcoin step 2: the signed rate taken back with the coin quote confirmed, a fresh address to pay. */
export const startBitcoin = async (info: BitcoinQuote, quoteId: string, idempotencyKey: string) =>
  started(
    await callApi('/account/deposit-coins', depositCoinsResponse, {
      body: {
        peeksCoins: info.peeksCoins,
        BTCtoUSD: info.BTCtoUSD,
        totalBitcoinAmount: info.totalBitcoinAmount,
        USDAmount: info.USDAmount,
        hash: info.hash,
        paymentMethodId: BITCOIN_PAYMENT_METHOD,
        quote_id: quoteId,
      },
      idempotencyKey,
    }),
  );

/** The pending-deposits view's list. */
export const useDeposits = () =>
  useQuery({
    queryKey: depositKeys.list(),
    queryFn: async ({ signal }) => (await callApi('/account/deposits', depositListResponse, { signal })).deposits,
  });
