import { quoteResponse, staleQuoteEnvelope, type Quote, type QuoteRequest } from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, callApi } from './api.ts';
import { queryClient } from './query.ts';

/** A conversion to quote: coins one side, USD or CAD the other, one of the two amounts. */
export type QuoteAsk = QuoteRequest;

/** The quotes' query keys: one quote per conversion asked, refreshed when it expires. */
export const quoteKeys = {
  all: ['quotes'] as const,
  ask: (ask: QuoteAsk) =>
    [...quoteKeys.all, ask.from_currency, ask.to_currency, ask.amount_in ?? null, ask.amount_out ?? null] as const,
};

/** How long a typed amount must rest before it is quoted, so typing "250" asks once, not three times. */
const SETTLE_MS = 300;

/** The least wait before asking again, so a clock ahead of the server's cannot ask in a loop. */
const LEAST_REFRESH_MS = 1_000;

export const msLeft = (quote: Pick<Quote, 'expires_at'>, now = Date.now()) =>
  new Date(quote.expires_at).getTime() - now;

/** Asks the server for the terms of `ask`, now. */
export const fetchQuote = async (ask: QuoteAsk, signal?: AbortSignal) =>
  (await callApi('/account/quote', quoteResponse, { body: ask, ...(signal ? { signal } : {}) })).quote;

/** `value` once it has stayed the same for a moment. */
export function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(value);
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [value]);
  return settled;
}

/**
 * The quote for `ask` (null: nothing valid to quote yet), asked when the
 * amount has settled and asked afresh when it expires, so what the screen
 * shows is always a quote the server will honour.
 */
export function useQuote(ask: QuoteAsk | null) {
  const settled = useSettled(ask === null ? null : JSON.stringify(ask));
  const current = settled === null ? null : (JSON.parse(settled) as QuoteAsk);
  const query = useQuery({
    queryKey: current === null ? [...quoteKeys.all, 'none'] : quoteKeys.ask(current),
    enabled: current !== null,
    queryFn: ({ signal }) => fetchQuote(current ?? ({} as QuoteAsk), signal),
    // A quote is good until it expires, then asked again. It is for one command: dropped once no screen shows it.
    staleTime: (state) => (state.state.data ? Math.max(0, msLeft(state.state.data)) : 0),
    refetchInterval: (state) => (state.state.data ? Math.max(LEAST_REFRESH_MS, msLeft(state.state.data)) : false),
    gcTime: 0,
  });
  // The quote shown is the one for what is typed now: none while the amount is changing.
  const same = ask !== null && settled === JSON.stringify(ask);
  return { ...query, quote: same ? (query.data ?? null) : null };
}

/** The fresh quote a 409 carries when the quote confirmed had expired or could not be used; null for any other refusal. */
export function freshQuoteIn(error: unknown): Quote | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = staleQuoteEnvelope.safeParse(error.payload);
  return parsed.success ? parsed.data.quote : null;
}

/** Shows `fresh` as the quote for `ask`, after a 409, so the person confirms it instead. */
export function replaceQuote(ask: QuoteAsk, fresh: Quote) {
  queryClient.setQueryData(quoteKeys.ask(ask), fresh);
}

/**
 * The quote `shown` when it prices `ask`; else null, after asking for the
 * quote of `ask` so that it shows: nothing converts before the person has
 * seen its terms.
 */
export async function quoteShownFor(ask: QuoteAsk, shown: Quote | null): Promise<Quote | null> {
  const fits =
    shown !== null &&
    shown.from_currency === ask.from_currency &&
    shown.to_currency === ask.to_currency &&
    (ask.amount_in === undefined || shown.amount_in === ask.amount_in) &&
    (ask.amount_out === undefined || shown.amount_out === ask.amount_out) &&
    msLeft(shown) > 0;
  if (fits) return shown;
  await queryClient.query({ queryKey: quoteKeys.ask(ask), queryFn: ({ signal }) => fetchQuote(ask, signal) });
  return null;
}
