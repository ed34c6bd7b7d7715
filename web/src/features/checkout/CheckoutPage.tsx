import {
  errorCodes,
  loginRequest,
  type CheckoutSession,
  type PaymentMethod,
  type TransactionView,
} from '@peeks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api.ts';
import { formatMoney } from '../../lib/money.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { Money } from '../../ui/Money.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { logIn, session } from '../session/index.ts';
import { refreshBalance, useBalance } from '../wallet/index.ts';
import { quoteKeys } from '../../lib/quotes.ts';
import { CoinQuoteLine, isCashPrice, isStaleQuote, useCoinQuote } from '../../ui/CoinQuote.tsx';
import { checkoutKeys, checkoutLink, payCheckout, useCheckoutSession, useSavedCards } from './checkout-api.ts';
import './checkout.css';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { checkoutTexts } from './i18n.ts';
import { formatDateTime } from '../../lib/dates.ts';

addLaterTexts(checkoutTexts);

type Loaded =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed'; errors: readonly string[] }
  | { status: 'ready'; checkout: CheckoutSession };

/** The session read as the page draws it: a refusal (a wrong link, someone else's purchase) is 'No such a transaction'. */
function loadedOf(query: ReturnType<typeof useCheckoutSession>, hasLink: boolean, gone: boolean): Loaded {
  if (!hasLink || gone) return { status: 'missing' };
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && error.status < 500 && error.status !== 0) return { status: 'missing' };
    return { status: 'failed', errors: error instanceof ApiError ? error.texts : [] };
  }
  return query.data ? { status: 'ready', checkout: query.data } : { status: 'loading' };
}

/** Wallet, or the id of a saved card. */
type Source = 'wallet' | number;

/**
 * /checkout?id&token (spec §2 "Checkout page (id, token)"): the purchase
 * summary, then for a guest the login box and the payment options, for a
 * signed-in buyer the wallet balance, saved cards and Process My Payment,
 * which pays once (one Idempotency-Key per attempt); then the receipt and
 * the way back to the merchant's shop. An unknown link, a wrong token and a
 * session someone else paid all read 'No such a transaction'.
 */
export default function CheckoutPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const [params] = useSearchParams();
  const link = checkoutLink(params.get('id'), params.get('token'));
  const [receipt, setReceipt] = useState<TransactionView | null>(null);
  const [gone, setGone] = useState(false);
  const { user } = useSnapshot(session);
  const sessionQuery = useCheckoutSession(link);
  const loaded = loadedOf(sessionQuery, link !== null, gone);
  const reload = () => {
    void sessionQuery.refetch();
  };

  return (
    <section className="panel narrow checkout" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('checkout.title')}</h1>
      {loaded.status === 'loading' && <Skeleton lines={4} label={t('checkout.loading')} />}
      {loaded.status === 'missing' && (
        <EmptyState
          title={t('checkout.no_such_transaction')}
          action={
            <Link to="/" className={buttonClass()}>
              {t('checkout.go_home')}
            </Link>
          }
        >
          {t('checkout.no_such_transaction_body')}
        </EmptyState>
      )}
      {loaded.status === 'failed' && (
        <div className="checkout-failed">
          <ServerErrors texts={loaded.errors.length > 0 ? loaded.errors : [t('checkout.failed')]} title={null} />
          <Button onClick={reload}>{t('checkout.try_again')}</Button>
        </div>
      )}
      {loaded.status === 'ready' && link && (
        <>
          <PurchaseSummary checkout={loaded.checkout} />
          {receipt ? (
            <Receipt checkout={loaded.checkout} transaction={receipt} />
          ) : loaded.checkout.state === 'paid' ? (
            <AlreadyPaid checkout={loaded.checkout} />
          ) : loaded.checkout.state === 'expired' ? (
            <Expired checkout={loaded.checkout} />
          ) : user ? (
            <PayPanel
              checkout={loaded.checkout}
              token={link.token}
              onPaid={setReceipt}
              onGone={() => {
                setGone(true);
              }}
            />
          ) : (
            <GuestPanel />
          )}
        </>
      )}
    </section>
  );
}

/** The cart lines with their prices and the total (spec §2). */
function PurchaseSummary({ checkout }: { checkout: CheckoutSession }) {
  const { t } = useTranslation();
  return (
    <Card title={t('checkout.summary', { merchant: checkout.merchant_name })} className="checkout-summary">
      <table className="cart-lines">
        <caption className="visually-hidden">{t('checkout.cart')}</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">{t('checkout.item')}</th>
            <th scope="col">{t('checkout.price')}</th>
          </tr>
        </thead>
        <tbody>
          {checkout.cart.map((line, index) => (
            <tr key={`${line.sku}-${String(index)}`}>
              <td>{line.name}</td>
              <td className="numeric">
                <Money minor={line.price} currency={checkout.currency} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('checkout.total')}</th>
            <td className="numeric">
              <Money minor={checkout.total} currency={checkout.currency} />
            </td>
          </tr>
        </tfoot>
      </table>
    </Card>
  );
}

/** A guest: the checkout login (username and password, 'Invalid Login') and the payment options. */
function GuestPanel() {
  const { t } = useTranslation();
  const loginId = useId();
  const spec = useSpecForm(loginRequest, { username: '', password: '' });

  const submit = async (credentials: { username: string; password: string }) => {
    try {
      // Signed in, the page shows the payer's panel for the same id and token: the reload of spec §4, without a round trip.
      await logIn(credentials);
    } catch (error) {
      if (error instanceof ApiError && error.has(errorCodes.loginFailed))
        throw new ApiError(error.status, [
          { code: errorCodes.loginFailed, message: t('checkout.invalid_login'), text: t('checkout.invalid_login') },
        ]);
      throw error;
    }
  };

  return (
    <>
      <Card title={<span id={loginId}>{t('checkout.login_title')}</span>}>
        <p className="muted">{t('checkout.login_body')}</p>
        <Form spec={spec} onSubmit={submit} labelledBy={loginId}>
          <TextField name="username" label={t('checkout.username')} autoComplete="username" />
          <TextField name="password" label={t('checkout.password')} type="password" autoComplete="current-password" />
          <SubmitButton>{t('checkout.log_in')}</SubmitButton>
        </Form>
        <p>
          {t('checkout.no_account')} <Link to="/register">{t('checkout.sign_up')}</Link>
        </p>
      </Card>
      <Card title={t('checkout.payment_options')}>
        <ul className="payment-options">
          <li>
            <strong>{t('checkout.pay_with_card')}</strong>
            <span>{t('checkout.pay_with_card_body')}</span>
          </li>
          <li>
            <strong>{t('checkout.email_transfer')}</strong>
            <span>{t('checkout.email_transfer_body')}</span>
          </li>
        </ul>
      </Card>
    </>
  );
}

/**
 * A signed-in buyer: pay from the wallet balance or a saved card. Each press
 * of Process My Payment for the same source is one attempt with one key, so
 * a double click or a retry after a lost answer pays once.
 */
function PayPanel({
  checkout,
  token,
  onPaid,
  onGone,
}: {
  checkout: CheckoutSession;
  token: string;
  onPaid: (transaction: TransactionView) => void;
  onGone: () => void;
}) {
  const { t } = useTranslation();
  const { data: balanceRead, status } = useBalance();
  const balance = balanceRead ?? null;
  const cardsQuery = useSavedCards(true);
  // A card list that cannot be read leaves the wallet to pay with.
  const cards: PaymentMethod[] | null = cardsQuery.isError ? [] : (cardsQuery.data ?? null);
  const [source, setSource] = useState<Source>('wallet');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const keys = useRef(attemptKeys());
  const groupId = useId();
  const queryClient = useQueryClient();

  const availableIn = (currency: CheckoutSession['currency']) =>
    balance?.balances.find((line) => line.currency === currency)?.available_balance ?? 0;
  const available = availableIn(checkout.currency);
  const balanceKnown = balance !== null;
  // A dollar total the dollars do not cover is paid from coins, at a quote shown before Process My Payment.
  const price = { amount: checkout.total, currency: checkout.currency };
  const coins = availableIn('CON');
  const fromCoins =
    source === 'wallet' && balanceKnown && isCashPrice(price) && available < checkout.total && coins > 0;
  const quote = useCoinQuote(fromCoins && isCashPrice(price) ? price : null);
  const short =
    source === 'wallet' &&
    balanceKnown &&
    (fromCoins ? quote.data !== undefined && quote.data.amount_in > coins : available < checkout.total);
  const waitingForQuote = fromCoins && quote.data === undefined;

  const pay = async () => {
    if (busy) return;
    const request = {
      id: checkout.id,
      token,
      ...(source === 'wallet' ? {} : { paymentMethodId: source }),
      ...(fromCoins && quote.data ? { quote_id: quote.data.quote_id } : {}),
    };
    const key = keys.current.keyFor(request);
    setBusy(true);
    setErrors([]);
    try {
      const transaction = await payCheckout(request, key);
      keys.current.settled(200);
      void refreshBalance();
      void queryClient.invalidateQueries({ queryKey: checkoutKeys.all });
      onPaid(transaction);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      keys.current.settled(error.status);
      if (error.has(errorCodes.transactionNotFound)) onGone();
      else if (isStaleQuote(error)) {
        // The quote ran out before the payment reached the server: a fresh one is shown, to confirm again.
        void queryClient.invalidateQueries({ queryKey: quoteKeys.all });
        setErrors([t('checkout.quote_changed')]);
      } else if (error.has(errorCodes.insufficientFunds)) {
        void refreshBalance();
        setErrors([t('checkout.insufficient_funds')]);
      } else setErrors(error.texts);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('checkout.pay_title')} className="checkout-pay">
      <fieldset className="pay-sources" aria-describedby={short ? `${groupId}-short` : undefined}>
        <legend>{t('checkout.pay_with')}</legend>
        <label className="radio pay-source">
          <input
            type="radio"
            name="source"
            checked={source === 'wallet'}
            onChange={() => {
              setSource('wallet');
              setErrors([]);
            }}
          />
          <span>
            {t('checkout.wallet_balance')}{' '}
            <span className="muted">
              {balanceKnown ? (
                <Money minor={fromCoins ? coins : available} currency={fromCoins ? 'CON' : checkout.currency} />
              ) : status === 'error' ? (
                t('checkout.balance_unknown')
              ) : (
                t('checkout.balance_loading')
              )}
            </span>
          </span>
        </label>
        {cards === null ? (
          <Skeleton lines={1} label={t('checkout.cards_loading')} />
        ) : (
          cards.map((card) => (
            <label key={card.payment_method_id} className="radio pay-source">
              <input
                type="radio"
                name="source"
                checked={source === card.payment_method_id}
                onChange={() => {
                  setSource(card.payment_method_id);
                  setErrors([]);
                }}
              />
              <span>{t('checkout.card', { brand: card.brand, number: card.number })}</span>
            </label>
          ))
        )}
        <Link to="/payment-method-list" className="add-card">
          {t('checkout.add_card')}
        </Link>
      </fieldset>
      {fromCoins && (
        <div className="checkout-coin-quote">
          <span>{t('checkout.paid_from_coins', { merchant: checkout.merchant_name })}</span>
          {quote.data ? (
            <CoinQuoteLine quote={quote.data} />
          ) : quote.isError ? (
            <span role="alert">{t('checkout.quote_failed')}</span>
          ) : (
            <Skeleton lines={1} label={t('checkout.quote_loading')} />
          )}
        </div>
      )}
      {short && (
        <div id={`${groupId}-short`} className="insufficient" role="alert">
          <strong>{t('checkout.insufficient_funds')}</strong>
          <span>
            {fromCoins && quote.data
              ? t('checkout.insufficient_body', { missing: formatMoney(quote.data.amount_in - coins, 'CON') })
              : t('checkout.insufficient_body', {
                  missing: formatMoney(checkout.total - available, checkout.currency),
                })}
          </span>
          <Link to="/?deposit=choose" className={buttonClass()}>
            {t('checkout.add_funds')}
          </Link>
        </div>
      )}
      <ServerErrors texts={errors} title={null} />
      <details className="email-transfer">
        <summary>{t('checkout.email_transfer')}</summary>
        <p>{t('checkout.email_transfer_signed_in')}</p>
      </details>
      <Button
        variant="primary"
        busy={busy}
        disabled={short || waitingForQuote}
        onClick={() => void pay()}
        className="process"
      >
        {t('checkout.process')}
      </Button>
    </Card>
  );
}

function ReturnLink({ checkout }: { checkout: CheckoutSession }) {
  const { t } = useTranslation();
  return (
    <a href={checkout.success_url} className={buttonClass('primary')}>
      {t('checkout.return', { merchant: checkout.merchant_name })}
    </a>
  );
}

/** When the payment was written, in the reader's language; as sent when it is not a date. */
function paidAt(entryDate: string, language: string): string {
  return formatDateTime(entryDate, language);
}

/** After paying: what was paid, to whom, under which transaction, and the way back to the shop. */
function Receipt({ checkout, transaction }: { checkout: CheckoutSession; transaction: TransactionView }) {
  const { t, i18n } = useTranslation();
  return (
    <Card title={t('checkout.paid_title')} className="checkout-receipt">
      <p role="status">
        <Badge tone="success">{t('checkout.paid')}</Badge>{' '}
        {t('checkout.paid_body', {
          amount: formatMoney(checkout.total, checkout.currency),
          merchant: checkout.merchant_name,
        })}
      </p>
      <dl className="summary">
        <dt>{t('checkout.merchant')}</dt>
        <dd>{checkout.merchant_name}</dd>
        <dt>{t('checkout.amount')}</dt>
        <dd>
          <Money minor={checkout.total} currency={checkout.currency} />
        </dd>
        {/* A dollar total paid from coins: what left the wallet. */}
        {transaction.currency !== checkout.currency && (
          <>
            <dt>{t('checkout.paid_with')}</dt>
            <dd>
              <Money minor={transaction.amount} currency={transaction.currency} />
            </dd>
          </>
        )}
        <dt>{t('checkout.transaction')}</dt>
        <dd className="tx-id">{transaction.tx_id}</dd>
        <dt>{t('checkout.date')}</dt>
        <dd>{paidAt(transaction.entry_date, i18n.language)}</dd>
      </dl>
      <div className="buttons">
        <ReturnLink checkout={checkout} />
        <Link to="/" className={buttonClass()}>
          {t('checkout.go_to_wallet')}
        </Link>
      </div>
    </Card>
  );
}

/** A session already paid (by this buyer, on another visit): nothing more to pay; paying again is refused. */
function AlreadyPaid({ checkout }: { checkout: CheckoutSession }) {
  const { t } = useTranslation();
  return (
    <Card title={t('checkout.already_paid_title')} className="checkout-receipt">
      <p role="status">
        <Badge tone="success">{t('checkout.paid')}</Badge> {t('checkout.already_paid_body')}
      </p>
      <div className="buttons">
        <ReturnLink checkout={checkout} />
      </div>
    </Card>
  );
}

function Expired({ checkout }: { checkout: CheckoutSession }) {
  const { t } = useTranslation();
  return (
    <Card title={t('checkout.expired_title')}>
      <p role="status">
        <Badge tone="danger">{t('checkout.expired')}</Badge>{' '}
        {t('checkout.expired_body', { merchant: checkout.merchant_name })}
      </p>
      <div className="buttons">
        <ReturnLink checkout={checkout} />
      </div>
    </Card>
  );
}
