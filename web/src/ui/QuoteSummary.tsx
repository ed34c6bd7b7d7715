import type { Quote } from '@peeks/contracts';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../lib/money.ts';
import { msLeft } from '../lib/quotes.ts';

/** The seconds left of a quote, counted down once a second while shown. */
function SecondsLeft({ quote }: { quote: Quote }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  const seconds = Math.max(0, Math.ceil(msLeft(quote, now) / 1000));
  return <>{seconds === 0 ? t('quote.refreshing') : t('quote.expires_in', { seconds })}</>;
}

/**
 * A conversion's terms before the person confirms (issue 35): what they pay,
 * what they get, the rate, the fee (0.00, shown as such) and how long the
 * quote holds. The figures are announced when they change; the countdown is
 * not, to keep a screen reader quiet.
 */
export function QuoteSummary({
  quote,
  pending = false,
  notice = null,
  payLabel,
  getLabel,
  children,
}: {
  quote: Quote | null;
  /** A quote is being asked for what is typed. */
  pending?: boolean;
  /** Why the quote is shown again (a 409's fresh quote). */
  notice?: string | null;
  payLabel?: string;
  getLabel?: string;
  /** More terms of the same confirmation (where the money goes), as <dt>/<dd> pairs aligned with the quote's. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const cash = quote && (quote.from_currency === 'CON' ? quote.to_currency : quote.from_currency);
  return (
    <section className="quote-summary" aria-label={t('quote.title')}>
      {notice && (
        <p role="alert" className="notice">
          {notice}
        </p>
      )}
      <div aria-live="polite">
        {quote && cash ? (
          <dl className="summary" data-testid="quote">
            <dt>{payLabel ?? t('quote.you_pay')}</dt>
            <dd data-testid="quote-pay">{formatMoney(quote.amount_in, quote.from_currency)}</dd>
            <dt>{getLabel ?? t('quote.you_get')}</dt>
            <dd data-testid="quote-get">{formatMoney(quote.amount_out, quote.to_currency)}</dd>
            <dt>{t('quote.rate')}</dt>
            <dd>{t('quote.rate_value', { currency: cash, coins: quote.rate })}</dd>
            <dt>{t('quote.fee')}</dt>
            <dd>{formatMoney(quote.fee, quote.from_currency)}</dd>
            {children}
          </dl>
        ) : (
          <>
            <p className="hint">{pending ? t('quote.refreshing') : t('quote.waiting')}</p>
            {children && <dl className="summary">{children}</dl>}
          </>
        )}
      </div>
      {quote && (
        <p className="hint quote-expiry">
          <SecondsLeft quote={quote} />
        </p>
      )}
    </section>
  );
}
