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
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';

/** The card tokenizer the Add Credit Card modal frames (spec §7 payment-provider-lookup). */
const CARD_PROVIDER = 'sandbox';

/**
 * Spec §4: only methods with state 'E' and validated 'V' (or any other
 * non-empty mark) are shown. The types are CC, CHQ or WIRE by the contract,
 * which refuses a list with any other.
 */
const shownMethods = (methods: readonly PaymentMethod[]) =>
  methods.filter((method) => method.state === 'E' && method.validated !== '');

async function listPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  return shownMethods(
    (await callApi('/account/pay-method', payMethodListResponse, { body: {}, ...(signal ? { signal } : {}) })).methods,
  );
}

/** The signed-in user's payment methods: loading until the first answer, `reload` after any change. */
export function usePaymentMethods() {
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    listPaymentMethods(controller.signal)
      .then((list) => {
        setMethods(list);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
    };
  }, [loads]);
  const reload = useCallback(() => {
    setFailed(false);
    setLoads((count) => count + 1);
  }, []);
  return { methods, failed, reload };
}

/** The Add Credit Card request as sent: the schema's input (the expiry as the selects' texts). */
export type CardForm = z.input<typeof cardPayMethodRequest>;

/** A card, bank account or wire account, as its modal sends it. */
/** What add-pay-method takes: a card, bank or wire method. */
export type PaymentMethodRequest = z.input<typeof addPayMethodRequest>;

export async function addPaymentMethod(request: PaymentMethodRequest) {
  return (await callApi('/wallet/add-pay-method', paymentMethodResponse, { body: request })).payment_method;
}

/** Select: makes the method the default (spec §4). */
export async function makeDefault(paymentMethodId: number) {
  await callApi('/account/user-payment-method-update', paymentMethodResponse, {
    body: { paymentMethodId, make_default: true },
  });
}

export async function deletePaymentMethod(paymentMethodId: number) {
  await callApi('/account/user-payment-method-delete', payMethodChangedResponse, { body: { paymentMethodId } });
}

export async function cardTokenizer() {
  return (
    await callApi('/wallet/payment-provider-lookup', providerLookupResponse, { query: { provider: CARD_PROVIDER } })
  ).detail;
}

export type CoinRate = z.infer<typeof forex>;

/** The rate coins are bought at in `currency`: null while it loads, 'failed' when it could not be had. */
export function useCoinRate(currency: 'USD' | 'CAD') {
  const [rate, setRate] = useState<CoinRate | 'failed' | null>(null);
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    callApi('/account/forex-lookup', forexResponse, { body: { currency }, signal: controller.signal })
      .then((answer) => {
        setRate(answer.forex);
      })
      .catch(() => {
        if (!controller.signal.aborted) setRate('failed');
      });
    return () => {
      controller.abort();
    };
  }, [currency, loads]);
  const reload = useCallback(() => {
    setRate(null);
    setLoads((count) => count + 1);
  }, []);
  return { rate, reload };
}

/** Buys coins with a stored card; `idempotencyKey` names the attempt, so a retry of it is never charged twice. */
export async function purchase(request: PurchaseRequest, idempotencyKey: string) {
  return (await callApi('/account/purchase', transactionResponse, { body: request, idempotencyKey })).transaction;
}
