import {
  addFundForm,
  coinCountLabel,
  coinsBoughtWith,
  type Currency,
  type Funding,
  type PaymentMethod,
  type PurchaseRequest,
} from '@peeks/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney } from '../../lib/money.ts';
import { freshQuoteIn, quoteShownFor, replaceQuote, useQuote, type QuoteAsk } from '../../lib/quotes.ts';
import { QuoteSummary } from '../../ui/QuoteSummary.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { LoadingOverlay } from '../../ui/feedback.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast, TOAST_MS } from '../../ui/toasts.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { refreshBalance } from '../wallet/index.ts';
import { purchase, useCoinRate, usePaymentMethods, type CoinRate } from './payment-methods-api.ts';

/** Coins are bought in US dollars, the purchase call's default currency. */
const CURRENCY = 'USD';

type Outcome =
  { kind: 'form' } | { kind: 'error'; texts: readonly string[] } | { kind: 'success'; coins: number; funding: Funding };

/** What the form asks to buy: the purchase, and the quote (the card's currency to coins) it confirms. */
export interface Purchase {
  request: PurchaseRequest;
  ask: QuoteAsk;
}

/** What a buy came to: done (or refused, shown by the page), or a fresh quote to confirm instead. */
type Bought = 'done' | 'requoted';

/**
 * /add-fund, the Add Fund page (spec §2, §4, §8): a static-backdrop modal
 * with an amount and a card, Confirm Deposit and Go Back. The amount buys
 * coins with the card at a quote shown before Confirm (what the card is
 * charged, the coins, the rate and the fee); the purchase names that quote,
 * and an expired one is shown afresh to confirm again (409). Failure shows
 * 'Error' with Try Again (a fresh form) or Cancel; success shows 'Success'
 * with what the card was charged, and reloads the balance. Each attempt
 * carries an Idempotency-Key, so a double click or a retry after a lost
 * answer is charged once.
 */
export default function AddFund() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const methodList = usePaymentMethods();
  const coinRate = useCoinRate(CURRENCY);
  const methods = methodList.data ?? null;
  const rate = coinRate.data ?? null;
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'form' });
  const [round, setRound] = useState(0);
  const [keys] = useState(() => attemptKeys());
  const pending = useRef<Promise<Bought> | null>(null);

  const buy = ({ request, ask }: Purchase) => {
    // A second submit while the first runs (a double click) waits for the first instead of buying again.
    pending.current ??= (async (): Promise<Bought> => {
      // The quote is how this attempt is shown, not a new attempt: a retry after a lost answer keeps its key.
      const key = keys.keyFor({ ...request, quote_id: undefined });
      try {
        const answer = await purchase(request, key);
        keys.settled(200);
        void refreshBalance();
        setOutcome({ kind: 'success', coins: answer.quote.amount_out, funding: answer.funding });
        return 'done';
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        keys.settled(error.status);
        const fresh = freshQuoteIn(error);
        if (fresh) {
          replaceQuote(ask, fresh);
          return 'requoted';
        }
        setOutcome({ kind: 'error', texts: error.texts });
        return 'done';
      } finally {
        pending.current = null;
      }
    })();
    return pending.current;
  };

  const goHome = () => void navigate('/');

  // Success says so in a toast too, and returns to the dashboard once the toast has been read (OK goes sooner).
  const succeeded = outcome.kind === 'success';
  useEffect(() => {
    if (!succeeded) return;
    toast(t('add_fund.deposited'));
    const timer = setTimeout(() => void navigate('/'), TOAST_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [succeeded, navigate, t]);

  if (methodList.isError || coinRate.isError) {
    return (
      <ErrorDialog
        texts={[t('errors.something_went_wrong')]}
        onTryAgain={() => {
          void methodList.refetch();
          void coinRate.refetch();
        }}
        onCancel={goHome}
      />
    );
  }
  if (outcome.kind === 'error') {
    return (
      <ErrorDialog
        texts={outcome.texts}
        onTryAgain={() => {
          setRound(round + 1);
          setOutcome({ kind: 'form' });
        }}
        onCancel={goHome}
      />
    );
  }
  if (outcome.kind === 'success') {
    return (
      <section className="panel">
        {/* The page behind the dialog says the same, so nothing is blank while it shows. */}
        <PageHeader
          title={t('add_fund.title')}
          description={t('add_fund.added', { coins: coinCountLabel(outcome.coins) })}
        />
        <Dialog
          title={t('add_fund.success_title')}
          footer={
            <button type="button" className="button primary" onClick={goHome}>
              {t('add_fund.ok')}
            </button>
          }
        >
          <p role="status">{t('add_fund.deposited')}</p>
          <p>{t('add_fund.added', { coins: coinCountLabel(outcome.coins) })}</p>
          <p data-testid="charged">
            {t('add_fund.charged', {
              label: outcome.funding.label,
              amount: formatMoney(outcome.funding.amount, outcome.funding.currency as Currency),
            })}
          </p>
        </Dialog>
      </section>
    );
  }
  const cards = methods?.filter((method) => method.type === 'CC') ?? null;
  return (
    <Dialog title={t('add_fund.title')}>
      {cards === null || rate === null ? (
        <div className="dialog-loading">
          <LoadingOverlay />
        </div>
      ) : (
        <FundForm key={round} cards={cards} forex={rate} onBuy={buy} onGoBack={goHome} />
      )}
    </Dialog>
  );
}

/** A select's text as the id the API takes; empty stays missing so the rule says 'Please select Payment Method'. */
const asId = (value: string) => (value === '' ? undefined : Number(value));
/**
 * Whole dollars as typed: anything but digits is kept and refused ('Please
 * enter valid amount') rather than dropped, since dropping the point of
 * "1.50" made it 150 and a 100× purchase.
 */
const asWholeAmount = (value: string) => {
  const typed = value.trim();
  if (typed === '') return undefined;
  return /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
};

function FundForm({
  cards,
  forex,
  onBuy,
  onGoBack,
}: {
  cards: PaymentMethod[];
  forex: CoinRate;
  onBuy: (purchase: Purchase) => Promise<Bought>;
  onGoBack: () => void;
}) {
  const { t } = useTranslation();
  // The default card is chosen already (spec §4: selecting a method makes it the default).
  const preferred = cards.find((card) => card.is_default) ?? (cards.length === 1 ? cards[0] : undefined);
  const spec = useSpecForm(addFundForm, preferred ? { payment_method_id: preferred.payment_method_id } : undefined);
  const amount = spec.form.watch('amount') as number | undefined;
  const coins =
    addFundForm.shape.amount.safeParse(amount).success && amount !== undefined ? coinsBoughtWith(amount, forex) : null;
  const ask = coins === null ? null : askFor(coins);
  const { quote, isFetching } = useQuote(ask);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Form
      spec={spec}
      onSubmit={async (values) => {
        const wanted = askFor(coinsBoughtWith(values.amount, forex));
        // Nothing is charged before the person has seen the quote for this amount.
        const confirmed = await quoteShownFor(wanted, quote);
        if (!confirmed) return;
        setNotice(null);
        const bought = await onBuy({
          request: {
            payment_method_id: values.payment_method_id,
            coin_amt: confirmed.amount_out,
            currency: CURRENCY,
            quote_id: confirmed.quote_id,
          },
          ask: wanted,
        });
        if (bought === 'requoted') setNotice(t('quote.changed'));
      }}
    >
      <AmountField />
      <QuoteSummary
        quote={quote}
        pending={ask !== null && isFetching}
        notice={notice}
        payLabel={t('add_fund.pay_label')}
        getLabel={t('add_fund.get_label')}
      />
      <SelectField
        name="payment_method_id"
        label={t('add_fund.payment_method')}
        placeholder={t('add_fund.choose_method')}
        choices={cards.map((card) => ({
          value: String(card.payment_method_id),
          label: `${card.brand.toUpperCase()} ${card.number}`,
        }))}
        setValueAs={asId}
      />
      {cards.length === 0 && (
        <p>
          {t('add_fund.no_cards')} <Link to="/payment-method-list">{t('add_fund.add_card')}</Link>
        </p>
      )}
      <div className="buttons">
        <button type="button" className="button" onClick={onGoBack}>
          {t('add_fund.go_back')}
        </button>
        <SubmitButton>{t('add_fund.confirm')}</SubmitButton>
      </div>
    </Form>
  );
}

/** The quote a purchase of `coins` needs: the card's currency to coins, the coins fixed. */
const askFor = (coins: number) => ({ from_currency: CURRENCY, to_currency: 'CON', amount_out: coins }) as const;

/** Whole dollars (spec §5); the quote under it says what they buy. */
function AmountField() {
  const { t } = useTranslation();
  // The modal opens on the loading overlay; the amount takes the focus when the form appears.
  return (
    <TextField
      name="amount"
      label={t('add_fund.amount')}
      hint={t('add_fund.amount_hint')}
      setValueAs={asWholeAmount}
      inputMode="numeric"
      autoComplete="off"
      autoFocus
    />
  );
}

function ErrorDialog({
  texts,
  onTryAgain,
  onCancel,
}: {
  texts: readonly string[];
  onTryAgain: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('add_fund.error_title')}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            {t('add_fund.cancel')}
          </button>
          <button type="button" className="button primary" onClick={onTryAgain}>
            {t('add_fund.try_again')}
          </button>
        </>
      }
    >
      <div role="alert">
        {texts.length === 0 ? <p>{t('errors.something_went_wrong')}</p> : texts.map((text) => <p key={text}>{text}</p>)}
      </div>
    </Dialog>
  );
}
