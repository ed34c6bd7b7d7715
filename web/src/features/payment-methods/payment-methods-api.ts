import {
  forexResponse,
  payMethodChangedResponse,
  payMethodListResponse,
  paymentMethodResponse,
  providerLookupResponse,
  transactionResponse,
  type addPayMethodRequest,
  type cardPayMethodRequest,
  type forex,
  type PaymentMethod,
  type PurchaseRequest,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** The card tokenizer the Add Credit Card modal frames (spec §7 payment-provider-lookup). */
const CARD_PROVIDER = 'sandbox';

/**
 * Spec §4: only methods with state 'E' and validated 'V' (or any other
 * non-empty mark) are shown. The types are CC, CHQ or WIRE by the contract,
 * which refuses a list with any other.
 */
const shownMethods = (methods: readonly PaymentMethod[]) =>
  methods.filter((method) => method.state === 'E' && method.validated !== '');

/** The payment-methods feature's query keys: every read of it sits under `all`, which a change invalidates. */
export const paymentMethodKeys = {
  all: ['payment-methods'] as const,
  list: () => [...paymentMethodKeys.all, 'list'] as const,
  coinRate: (currency: 'USD' | 'CAD') => [...paymentMethodKeys.all, 'coin-rate', currency] as const,
  tokenizer: () => [...paymentMethodKeys.all, 'tokenizer'] as const,
};

/** A change to the methods, refused or not, has the list read again (spec §4: "the list reloads"). */
async function changing<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    void queryClient.invalidateQueries({ queryKey: paymentMethodKeys.list() });
  }
}

/** The signed-in user's payment methods, as Payment Methods and Add Fund show them. */
export const usePaymentMethods = () =>
  useQuery({
    queryKey: paymentMethodKeys.list(),
    queryFn: async ({ signal }) =>
      shownMethods((await callApi('/account/pay-method', payMethodListResponse, { body: {}, signal })).methods),
  });

/** The Add Credit Card request as sent: the schema's input (the expiry as the selects' texts). */
export type CardForm = z.input<typeof cardPayMethodRequest>;

/** A card, bank account or wire account, as its modal sends it. */
/** What add-pay-method takes: a card, bank or wire method. */
export type PaymentMethodRequest = z.input<typeof addPayMethodRequest>;

export async function addPaymentMethod(request: PaymentMethodRequest) {
  return (await changing(callApi('/wallet/add-pay-method', paymentMethodResponse, { body: request }))).payment_method;
}

/** Select: makes the method the default (spec §4). */
export async function makeDefault(paymentMethodId: number) {
  await changing(
    callApi('/account/user-payment-method-update', paymentMethodResponse, {
      body: { paymentMethodId, make_default: true },
    }),
  );
}

export async function deletePaymentMethod(paymentMethodId: number) {
  await changing(
    callApi('/account/user-payment-method-delete', payMethodChangedResponse, { body: { paymentMethodId } }),
  );
}

/** The card tokenizer's page, framed by the Add Credit Card modal. */
export const useCardTokenizer = () =>
  useQuery({
    queryKey: paymentMethodKeys.tokenizer(),
    queryFn: async ({ signal }) =>
      (
        await callApi('/wallet/payment-provider-lookup', providerLookupResponse, {
          query: { provider: CARD_PROVIDER },
          signal,
        })
      ).detail,
  });

export type CoinRate = z.infer<typeof forex>;

/** The rate coins are bought at in `currency`. */
export const useCoinRate = (currency: 'USD' | 'CAD') =>
  useQuery({
    queryKey: paymentMethodKeys.coinRate(currency),
    queryFn: async ({ signal }): Promise<CoinRate> =>
      (await callApi('/account/forex-lookup', forexResponse, { body: { currency }, signal })).forex,
  });

/** Buys coins with a stored card; `idempotencyKey` names the attempt, so a retry of it is never charged twice. */
export async function purchase(request: PurchaseRequest, idempotencyKey: string) {
  return (await callApi('/account/purchase', transactionResponse, { body: request, idempotencyKey })).transaction;
}
