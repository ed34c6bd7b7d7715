import { errorCodes, quoteResponse, type Currency, type Quote } from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../lib/api.ts';
import { formatMoney } from '../lib/money.ts';

/**
 * A dollar price paid from coins, as the pay screens (a merchant's QR,
 * checkout) show it before the person confirms: the quote the API gives for
 * coins to that price, fetched afresh when it expires, so what is shown is
 * what the confirm (carrying its `quote_id`) pays.
 */

export type CashPrice = { amount: number; currency: Extract<Currency, 'USD' | 'CAD'> };

export const isCashPrice = (price: { amount: number; currency: Currency }): price is CashPrice =>
  price.currency === 'USD' || price.currency === 'CAD';

export const coinQuoteKeys = {
  all: ['coin-quote'] as const,
  price: (price: CashPrice) => [...coinQuoteKeys.all, price.currency, price.amount] as const,
};

/** The quote for paying `price` from coins; none asked for while `price` is null. */
export function useCoinQuote(price: CashPrice | null) {
  return useQuery({
    queryKey: coinQuoteKeys.price(price ?? { amount: 0, currency: 'USD' }),
    queryFn: async ({ signal }) =>
      (
        await callApi('/account/quote', quoteResponse, {
          body: { from_currency: 'CON', to_currency: price?.currency, amount_out: price?.amount },
          signal,
        })
      ).quote,
    enabled: price !== null,
    // A quote holds about a minute: a new one is asked for as it runs out.
    staleTime: Infinity,
    refetchInterval: (query) =>
      query.state.data ? Math.max(Date.parse(query.state.data.expires_at) - Date.now(), 1_000) : false,
  });
}

/** Whether a refusal says the quote expired or was not the payer's to use: show the fresh one and ask again. */
export const isStaleQuote = (error: unknown): boolean =>
  error instanceof ApiError && (error.has(errorCodes.quoteExpired) || error.has(errorCodes.quoteUnusable));

function secondsLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
}

/** "4.75 USD = 95.00 Coins · 20 Coins per USD · fee $0.00 · expires in 52 s". */
export function CoinQuoteLine({ quote }: { quote: Quote }) {
  const { t } = useTranslation();
  // The clock's second, kept by a timer, so the countdown is read from state rather than the clock during render.
  const [clock, setClock] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setClock(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  const left = secondsLeft(quote.expires_at, clock);
  const cash = quote.to_currency as Currency;
  return (
    <p className="coin-quote" data-testid="coin-quote">
      <strong>
        {t('coin_quote.pays', {
          price: formatMoney(quote.amount_out, cash),
          coins: formatMoney(quote.amount_in, 'CON'),
        })}
      </strong>
      <span> · {t('coin_quote.rate', { rate: quote.rate, currency: cash })}</span>
      <span> · {t('coin_quote.fee', { fee: formatMoney(quote.fee, cash) })}</span>
      {/* Read once, not every second: a screen reader hears the expiry when it reaches the line. */}
      <span aria-hidden="true">
        {' '}
        · {left > 0 ? t('coin_quote.expires_in', { seconds: left }) : t('coin_quote.renewing')}
      </span>
    </p>
  );
}
