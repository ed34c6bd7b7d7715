import {
  errorCodes,
  withdrawForm,
  type Currency,
  type PaymentMethod,
  type TransactionView,
  type WithdrawRequest,
} from '@peeks/contracts';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney } from '../../lib/money.ts';
import { StatusPill } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { cardFundsNote } from './card-funds.ts';
import { onLiveMessage, refreshBalance, useBalance } from './wallet-store.ts';
import { pinIsSet, withdraw, withdrawDestinations } from './withdraw-api.ts';

const CURRENCIES: readonly Exclude<Currency, 'IMP'>[] = ['CON', 'USD', 'CAD'];

interface Typed {
  currency: Exclude<Currency, 'IMP'>;
  amount: string;
  paymentMethodId: string;
  pin: string;
}
type FieldErrors = Partial<Record<keyof Typed, string | undefined>>;

type Stage =
  { stage: 'form' } | { stage: 'confirm'; request: WithdrawRequest } | { stage: 'sent'; transaction: TransactionView };

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

const methodLabel = (method: PaymentMethod) =>
  method.type === 'CC' ? `${method.brand} ${method.number}` : `${method.type} ${method.number}`;

/**
 * Withdraw Funds (issue 22, spec §2's Withdraw Funds tile): withdrawable
 * money (not on hold) to a stored card or bank account. The amount is
 * checked against what is withdrawable before anything is sent; the PIN is
 * asked for once one is set; a confirmation step; then the withdrawal's
 * state, Entered until a payout worker or an operator settles it, updated
 * live to Processed or Failed.
 */
export function WithdrawDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { data: balance } = useBalance();
  const [loaded, setLoaded] = useState<{ methods: PaymentMethod[]; pinSet: boolean } | null>(null);
  const [typed, setTyped] = useState<Typed>({ currency: 'CON', amount: '', paymentMethodId: '', pin: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverErrors, setServerErrors] = useState<readonly string[]>([]);
  const [stage, setStage] = useState<Stage>({ stage: 'form' });
  const [busy, setBusy] = useState(false);
  const keys = useRef(attemptKeys());

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([withdrawDestinations(controller.signal), pinIsSet(controller.signal)]).then(
      ([methods, pinSet]) => {
        const preferred = methods.find((method) => method.is_default) ?? methods[0];
        setTyped((before) => ({ ...before, paymentMethodId: preferred ? String(preferred.payment_method_id) : '' }));
        setLoaded({ methods, pinSet });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setServerErrors(error instanceof ApiError ? error.texts : [t('errors.something_went_wrong')]);
        setLoaded({ methods: [], pinSet: false });
      },
    );
    return () => {
      controller.abort();
    };
  }, [t]);

  // The live feed tells when the payout settles the withdrawal.
  const sentId = stage.stage === 'sent' ? stage.transaction.tx_id : null;
  useEffect(() => {
    if (sentId === null) return;
    return onLiveMessage((message) => {
      if (message.type === 'activity' && message.transaction.tx_id === sentId)
        setStage({ stage: 'sent', transaction: message.transaction });
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
    setErrors((before) => ({ ...before, [field]: undefined }));
  };

  const review = (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = withdrawForm.safeParse(loaded?.pinSet ? typed : { ...typed, pin: '' });
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
    setBusy(true);
    setServerErrors([]);
    try {
      const transaction = await withdraw(request, keys.current.keyFor(request));
      keys.current.settled(200);
      setStage({ stage: 'sent', transaction });
      void refreshBalance();
    } catch (error) {
      if (error instanceof ApiError) {
        keys.current.settled(error.status);
        setServerErrors(error.texts);
        // A wrong PIN is fixed on the form.
        if (error.has(errorCodes.pinWrong) || error.has(errorCodes.pinNeeded)) setStage({ stage: 'form' });
      } else setServerErrors([t('errors.something_went_wrong')]);
    } finally {
      setBusy(false);
    }
  };

  if (stage.stage === 'sent') {
    const { transaction } = stage;
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
          {known && <p>{t(`wallet.withdraw.${known.note}`)}</p>}
        </div>
      </Dialog>
    );
  }

  if (stage.stage === 'confirm') {
    const { request } = stage;
    const method = loaded?.methods.find((each) => each.payment_method_id === request.paymentMethodId);
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
            <Button variant="primary" busy={busy} onClick={() => void send(request)}>
              {t('wallet.withdraw.confirm')}
            </Button>
          </>
        }
      >
        <ServerErrors texts={serverErrors} title={null} />
        <dl className="summary">
          <div>
            <dt>{t('wallet.withdraw.amount')}</dt>
            <dd>{formatMoney(request.amount, request.currency)}</dd>
          </div>
          <div>
            <dt>{t('wallet.withdraw.to')}</dt>
            <dd>{method ? methodLabel(method) : request.paymentMethodId}</dd>
          </div>
        </dl>
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
      <ServerErrors texts={serverErrors} title={null} />
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
            options={CURRENCIES.map((code) => ({ value: code, label: code }))}
          />
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
            value={typed.paymentMethodId}
            onChange={edit('paymentMethodId')}
            error={errors.paymentMethodId}
            options={[
              { value: '', label: t('wallet.withdraw.choose_destination') },
              ...loaded.methods.map((method) => ({
                value: String(method.payment_method_id),
                label: methodLabel(method),
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
