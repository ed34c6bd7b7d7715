import {
  errorCodes,
  paymentMethodName,
  withdrawForm,
  type Currency,
  type Funding,
  type TransactionView,
  type WithdrawRequest,
} from '@peeks/contracts';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney } from '../../lib/money.ts';
import { errorTexts } from '../../lib/query.ts';
import { freshQuoteIn, replaceQuote, useQuote } from '../../lib/quotes.ts';
import { StatusPill } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { QuoteSummary } from '../../ui/QuoteSummary.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { cardFundsNote } from './card-funds.ts';
import { onLiveMessage, refreshBalance, useBalance } from './wallet-store.ts';
import { usePinIsSet, useWithdrawDestinations, withdraw } from './withdraw-api.ts';

const CURRENCIES: readonly Exclude<Currency, 'IMP'>[] = ['CON', 'USD', 'CAD'];
const PAYOUT_CURRENCIES = ['USD', 'CAD'] as const;

interface Typed {
  currency: Exclude<Currency, 'IMP'>;
  amount: string;
  /** Null until chosen: the default method. */
  paymentMethodId: string | null;
  pin: string;
  payout_currency: (typeof PAYOUT_CURRENCIES)[number];
}
type FieldErrors = Partial<Record<keyof Typed, string | undefined>>;

type Stage =
  | { stage: 'form' }
  | { stage: 'confirm'; request: WithdrawRequest }
  | { stage: 'sent'; transaction: TransactionView; payout: Funding };

const SHOWN_STATES: Partial<
  Record<
    string,
    { key: 'pending' | 'completed' | 'failed'; tone: string; note: 'entered_note' | 'processed_note' | 'failed_note' }
  >
> = {
  pending: { key: 'pending', tone: 'entered', note: 'entered_note' },
  completed: { key: 'completed', tone: 'processed', note: 'processed_note' },
  failed: { key: 'failed', tone: 'failed', note: 'failed_note' },
};

/**
 * Withdraw Funds (issue 22, spec §2's Withdraw Funds tile): withdrawable
 * money (not on hold) to a stored card or bank account. The amount is
 * checked against what is withdrawable before anything is sent; the PIN is
 * asked for once one is set; a confirmation step stating the cash paid out,
 * the rate and fee of coins (a quote, refreshed as it expires, whose id the
 * withdrawal carries; a 409 shows the fresh one) and the destination by name;
 * then the withdrawal's state, Entered until a payout worker or an operator
 * settles it, updated live to Processed or Failed.
 */
export function WithdrawDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { data: balance } = useBalance();
  const destinations = useWithdrawDestinations();
  const pinSetting = usePinIsSet();
  const loadError = destinations.error ?? pinSetting.error;
  const loaded =
    destinations.data !== undefined && pinSetting.data !== undefined
      ? { methods: destinations.data, pinSet: pinSetting.data }
      : loadError
        ? { methods: [], pinSet: false }
        : null;
  const [typed, setTyped] = useState<Typed>({
    currency: 'CON',
    amount: '',
    paymentMethodId: null,
    pin: '',
    payout_currency: 'USD',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverErrors, setServerErrors] = useState<readonly string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ stage: 'form' });
  const [busy, setBusy] = useState(false);
  const keys = useRef(attemptKeys());
  const preferred = loaded?.methods.find((method) => method.is_default) ?? loaded?.methods[0];
  const chosenMethod = typed.paymentMethodId ?? (preferred ? String(preferred.payment_method_id) : '');
  // Coins are paid out as cash at a quote, shown on the confirmation before anything moves.
  const confirming = stage.stage === 'confirm' ? stage.request : null;
  const ask =
    confirming?.currency === 'CON'
      ? ({
          from_currency: 'CON',
          to_currency: confirming.payout_currency ?? 'USD',
          amount_in: confirming.amount,
        } as const)
      : null;
  const { quote, isFetching: quoting } = useQuote(ask);

  // The live feed tells when the payout settles the withdrawal.
  const sentId = stage.stage === 'sent' ? stage.transaction.tx_id : null;
  useEffect(() => {
    if (sentId === null) return;
    return onLiveMessage((message) => {
      if (message.type === 'activity' && message.transaction.tx_id === sentId)
        setStage((before) => (before.stage === 'sent' ? { ...before, transaction: message.transaction } : before));
    });
  }, [sentId]);

  const withdrawable = (currency: Currency) =>
    balance?.balances.find((line) => line.currency === currency)?.withdrawable_balance ??
    (currency === balance?.currency ? balance.withdrawable_balance : 0);
  // Only coins are bought by card: the note is the coin wallet's.
  const cardFunds = (currency: Currency) =>
    balance && currency === balance.currency ? cardFundsNote(balance, i18n.language) : null;
  const available = (currency: Currency) =>
    balance?.balances.find((line) => line.currency === currency)?.available_balance ??
    (currency === balance?.currency ? balance.available_balance : 0);

  const edit = (field: keyof Typed) => (event: { target: { value: string } }) => {
    setTyped((before) => ({ ...before, [field]: event.target.value }));
    setServerErrors([]);
    setNotice(null);
    setErrors((before) => ({ ...before, [field]: undefined }));
  };

  const review = (event: SyntheticEvent) => {
    event.preventDefault();
    const entered = { ...typed, paymentMethodId: chosenMethod };
    const parsed = withdrawForm.safeParse(loaded?.pinSet ? entered : { ...entered, pin: '' });
    const found: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Typed | undefined;
        if (field && !(field in found)) found[field] = issue.message;
      }
    } else if (parsed.data.amount > available(parsed.data.currency)) {
      // More than the balance itself: a hold is not the reason.
      found.amount = t(`error_codes.${String(errorCodes.insufficientFunds)}` as 'error_codes.42201');
    } else if (parsed.data.amount > withdrawable(parsed.data.currency)) {
      const maturing = cardFunds(parsed.data.currency);
      found.amount = maturing
        ? t('wallet.withdraw.card_funds', maturing)
        : t(`error_codes.${String(errorCodes.fundsOnHold)}` as 'error_codes.42202');
    }
    if (loaded?.pinSet && typed.pin.trim() === '')
      found.pin = t(`error_codes.${String(errorCodes.pinNeeded)}` as 'error_codes.42242');
    setErrors(found);
    if (parsed.success && Object.keys(found).length === 0) setStage({ stage: 'confirm', request: parsed.data });
  };

  const send = async (request: WithdrawRequest) => {
    // Coins go at the quote shown, never at one the person has not seen.
    if (ask && !quote) return;
    setBusy(true);
    setServerErrors([]);
    setNotice(null);
    try {
      // The quote is how this attempt is shown: a resend after no answer keeps the attempt's key.
      const answer = await withdraw(
        quote ? { ...request, quote_id: quote.quote_id } : request,
        keys.current.keyFor(request),
      );
      keys.current.settled(200);
      setStage({ stage: 'sent', transaction: answer.transaction, payout: answer.payout });
      void refreshBalance();
    } catch (error) {
      if (error instanceof ApiError) {
        keys.current.settled(error.status);
        const fresh = freshQuoteIn(error);
        if (fresh && ask) {
          replaceQuote(ask, fresh);
          setNotice(t('quote.changed'));
          return;
        }
        setServerErrors(error.texts);
        // A wrong PIN is fixed on the form.
        if (error.has(errorCodes.pinWrong) || error.has(errorCodes.pinNeeded)) setStage({ stage: 'form' });
      } else setServerErrors([t('errors.something_went_wrong')]);
    } finally {
      setBusy(false);
    }
  };

  if (stage.stage === 'sent') {
    const { transaction, payout } = stage;
    // The ledger's states in the words of a payout: pending is entered, completed processed.
    const known = SHOWN_STATES[transaction.state];
    return (
      <Dialog
        title={t('wallet.withdraw.state_title')}
        onClose={onClose}
        footer={
          <>
            <Link to="/transaction" className={buttonClass('secondary')} onClick={onClose}>
              {t('wallet.withdraw.view_transactions')}
            </Link>
            <Button variant="primary" onClick={onClose}>
              {t('wallet.withdraw.close')}
            </Button>
          </>
        }
      >
        <div role="status" aria-live="polite" className="withdraw-state">
          <p>
            <StatusPill status={known?.tone ?? transaction.state}>
              {known ? t(`wallet.withdraw.states.${known.key}`) : transaction.state}
            </StatusPill>{' '}
            {formatMoney(transaction.amount, transaction.currency)}
          </p>
          <p data-testid="payout">
            {t('wallet.withdraw.paid_out', {
              amount: formatMoney(payout.amount, payout.currency as Currency),
              destination: payout.label,
            })}
          </p>
          {known && <p>{t(`wallet.withdraw.${known.note}`)}</p>}
        </div>
      </Dialog>
    );
  }

  if (stage.stage === 'confirm') {
    const { request } = stage;
    const method = loaded?.methods.find((each) => each.payment_method_id === request.paymentMethodId);
    const destination = (
      <>
        <dt>{t('wallet.withdraw.to')}</dt>
        <dd data-testid="destination">{method ? paymentMethodName(method) : ''}</dd>
      </>
    );
    return (
      <Dialog
        title={t('wallet.withdraw.confirm_title')}
        onClose={onClose}
        footer={
          <>
            <Button
              onClick={() => {
                setStage({ stage: 'form' });
              }}
            >
              {t('wallet.withdraw.go_back')}
            </Button>
            <Button variant="primary" busy={busy} disabled={ask !== null && !quote} onClick={() => void send(request)}>
              {t('wallet.withdraw.confirm')}
            </Button>
          </>
        }
      >
        <ServerErrors texts={serverErrors} title={null} />
        {ask ? (
          <QuoteSummary
            quote={quote}
            pending={quoting}
            notice={notice}
            payLabel={t('wallet.withdraw.you_withdraw')}
            getLabel={t('wallet.withdraw.paid_out_label')}
          >
            {destination}
          </QuoteSummary>
        ) : (
          <dl className="summary">
            <dt>{t('wallet.withdraw.paid_out_label')}</dt>
            <dd>{formatMoney(request.amount, request.currency)}</dd>
            {destination}
          </dl>
        )}
      </Dialog>
    );
  }

  const noDestinations = loaded !== null && loaded.methods.length === 0;
  return (
    <Dialog
      title={t('wallet.withdraw.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('wallet.withdraw.close')}</Button>
          <Button type="submit" form="withdraw" variant="primary" disabled={loaded === null || noDestinations}>
            {t('wallet.withdraw.continue')}
          </Button>
        </>
      }
    >
      <ServerErrors texts={loadError ? errorTexts(loadError) : serverErrors} title={null} />
      {loaded === null ? (
        <Skeleton lines={4} label={t('wallet.withdraw.loading')} />
      ) : noDestinations ? (
        <div className="empty-state">
          <p className="empty-title">{t('wallet.withdraw.no_destinations')}</p>
          <Link to="/payment-method-list" className={buttonClass('primary')} onClick={onClose}>
            {t('wallet.withdraw.add_method')}
          </Link>
        </div>
      ) : (
        <form id="withdraw" className="spec-form" onSubmit={review} noValidate>
          <p>{t('wallet.withdraw.intro')}</p>
          <Select
            label={t('wallet.withdraw.currency')}
            value={typed.currency}
            onChange={edit('currency')}
            error={errors.currency}
            options={CURRENCIES.map((code) => ({ value: code, label: t(`currencies.${code}`) }))}
          />
          {typed.currency === 'CON' && (
            <Select
              label={t('wallet.withdraw.payout_currency')}
              value={typed.payout_currency}
              onChange={edit('payout_currency')}
              options={PAYOUT_CURRENCIES.map((code) => ({ value: code, label: code }))}
            />
          )}
          <Input
            label={t('wallet.withdraw.amount')}
            inputMode="decimal"
            autoComplete="off"
            value={typed.amount}
            onChange={edit('amount')}
            error={errors.amount}
            hint={[
              t('wallet.withdraw.withdrawable', {
                amount: formatMoney(withdrawable(typed.currency), typed.currency),
              }),
              ...(cardFunds(typed.currency) ? [t('wallet.withdraw.card_funds', cardFunds(typed.currency) ?? {})] : []),
            ].join(' ')}
          />
          <Select
            label={t('wallet.withdraw.destination')}
            value={chosenMethod}
            onChange={edit('paymentMethodId')}
            error={errors.paymentMethodId}
            options={[
              { value: '', label: t('wallet.withdraw.choose_destination') },
              ...loaded.methods.map((method) => ({
                value: String(method.payment_method_id),
                label: paymentMethodName(method),
              })),
            ]}
          />
          {loaded.pinSet && (
            <Input
              label={t('wallet.withdraw.pin')}
              type="password"
              inputMode="numeric"
              autoComplete="off"
              value={typed.pin}
              onChange={edit('pin')}
              error={errors.pin}
              hint={t('wallet.withdraw.pin_hint')}
            />
          )}
        </form>
      )}
    </Dialog>
  );
}
