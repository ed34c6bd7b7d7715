import { formatBitcoin, interacDepositRequest, type DepositSummary, type SessionUser } from '@peeks/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney } from '../../lib/money.ts';
import { queryClient } from '../../lib/query.ts';
import { freshQuoteIn, quoteShownFor, replaceQuote, useQuote, type QuoteAsk } from '../../lib/quotes.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { QuoteSummary } from '../../ui/QuoteSummary.tsx';
import { Avatar } from '../../ui/Avatar.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { DigitsField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QrCodeImage } from '../../ui/QrCodeImage.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { onLiveMessage, wallet } from '../wallet/index.ts';
import { banksFor } from './banks.ts';
import { coinsLabel, countdownText, timeLeft } from './deposit-rules.ts';
import { depositKeys, startBitcoin, startInterac, startZelle, useBitcoinInfo, useDeposits } from './deposits-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { depositsTexts } from './i18n.ts';
import { formatDateTime } from '../../lib/dates.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(depositsTexts);

/** Which modal is open: one at a time (spec §2), kept in the address (?deposit=…) so Back closes it. */
export type DepositStep = 'choose' | 'interac' | 'zelle' | 'bitcoin' | 'pending';
const STEPS: readonly DepositStep[] = ['choose', 'interac', 'zelle', 'bitcoin', 'pending'];

/**
 * The Deposit dialog (spec §2 "Deposit dialog and deposit sub-modals"),
 * opened by Add Funds on the dashboard card: the choice of method, then
 * Interac, Zelle or Bitcoin, and the pending-deposits view. Closing a
 * sub-modal reopens the main one; closing the main one closes the dialog.
 */
export default function DepositDialogs() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('deposit');
  const step = STEPS.find((candidate) => candidate === asked);
  const go = (next: DepositStep | null) => {
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === null) copy.delete('deposit');
        else copy.set('deposit', next);
        return copy;
      },
      { replace: next !== null && step !== 'choose' },
    );
  };
  const backToChoice = () => {
    go('choose');
  };
  switch (step) {
    case 'choose':
      return (
        <ChooseMethod
          onChoose={go}
          onClose={() => {
            go(null);
          }}
        />
      );
    case 'interac':
      return <EmailTransferDialog method="interac" onClose={backToChoice} />;
    case 'zelle':
      return <EmailTransferDialog method="zelle" onClose={backToChoice} />;
    case 'bitcoin':
      return (
        <BitcoinDialog
          onClose={backToChoice}
          onViewPending={() => {
            go('pending');
          }}
        />
      );
    case 'pending':
      return <PendingDeposits onClose={backToChoice} />;
    default:
      return null;
  }
}

function Who({ user }: { user: Pick<SessionUser, 'fullname' | 'username' | 'avatar' | 'city' | 'country'> }) {
  const place = [user.city, user.country].filter(Boolean).join(', ');
  return (
    <div className="recipient-card">
      <Avatar user={user} size={48} />
      <div>
        <strong>{user.fullname ?? user.username}</strong>
        {place && <span>{place}</span>}
      </div>
    </div>
  );
}

function ChooseMethod({ onChoose, onClose }: { onChoose: (step: DepositStep) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const choice = (step: DepositStep, label: string) => (
    <button
      type="button"
      className="button primary"
      onClick={() => {
        onChoose(step);
      }}
    >
      {label}
    </button>
  );
  return (
    <Dialog title={t('deposits.title')} onClose={onClose}>
      {user && <Who user={user} />}
      <p>{t('deposits.choose')}</p>
      <div className="buttons stacked">
        {choice('interac', t('deposits.interac'))}
        {choice('zelle', t('deposits.zelle'))}
        {choice('bitcoin', t('deposits.bitcoin'))}
        {choice('pending', t('deposits.view_pending'))}
      </div>
    </Dialog>
  );
}

/** A read-only value with its Copy button (the recipient, e-mail, question, answer, memo, address). */
function Copyable({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field copyable">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} />
        <button
          type="button"
          className="button"
          aria-label={t('deposits.copy_named', { what: label })}
          onClick={() => {
            void navigator.clipboard.writeText(value).then(() => {
              toast(t('deposits.copied'));
            });
          }}
        >
          {t('deposits.copy')}
        </button>
      </div>
    </div>
  );
}

const asWholeAmount = (value: string) => (value === '' ? undefined : Number(value));

/** The whole dollars typed when they are a valid deposit amount (1 to 500), else null. */
const validAmount = (amount: number | undefined) =>
  amount !== undefined && interacDepositRequest.shape.amount.safeParse(amount).success ? amount : null;

/** The quote of a deposit of `units` whole dollars of `currency`: cash in, coins out. */
const depositAsk = (currency: 'CAD' | 'USD', cents: number) =>
  ({ from_currency: currency, to_currency: 'CON', amount_in: cents }) as const;

/** What a deposit's confirm did: started, or a fresh quote (409) shown to confirm instead. */
async function confirmAt<T>(
  ask: QuoteAsk,
  start: () => Promise<T>,
  keys: ReturnType<typeof attemptKeys>,
): Promise<T | 'requoted'> {
  try {
    const answer = await start();
    keys.settled(200);
    return answer;
  } catch (error) {
    if (error instanceof ApiError) keys.settled(error.status);
    const fresh = freshQuoteIn(error);
    if (!fresh) throw error;
    replaceQuote(ask, fresh);
    return 'requoted';
  }
}

/** What either network's start answers that the dialog shows: the deposit's instructions and its quote. */
type EmailTransferAnswer = Pick<Awaited<ReturnType<typeof startZelle>>, 'deposit' | 'quote'>;

/**
 * Interac (Email Money Transfer, CAD) and Zelle (USD): the amount and its
 * quote (the dollars sent, the coins they buy, the rate, the fee), then what
 * to send where, each part with Copy. Continue names the quote shown.
 */
function EmailTransferDialog({ method, onClose }: { method: 'interac' | 'zelle'; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const spec = useSpecForm(interacDepositRequest.pick({ amount: true }));
  const amount = validAmount(spec.form.watch('amount'));
  const currency = method === 'interac' ? 'CAD' : 'USD';
  const [answer, setAnswer] = useState<EmailTransferAnswer | null>(null);
  // Once started, the quote is spent: no more are asked for.
  const ask = amount === null || answer ? null : depositAsk(currency, amount * 100);
  const { quote, isFetching } = useQuote(ask);
  const [notice, setNotice] = useState<string | null>(null);
  const [keys] = useState(() => attemptKeys());
  const title = method === 'interac' ? t('deposits.interac_title') : t('deposits.zelle_title');
  const banks = banksFor(user?.country ?? null);

  if (!answer) {
    return (
      <Dialog title={title} onClose={onClose}>
        <Form
          spec={spec}
          onSubmit={async (values) => {
            const wanted = depositAsk(currency, values.amount * 100);
            const confirmed = await quoteShownFor(wanted, quote);
            if (!confirmed) return;
            setNotice(null);
            // The quote is how the attempt is shown: a resend after no answer keeps the attempt's key.
            const key = keys.keyFor({ method, amount: values.amount });
            const outcome = await confirmAt<EmailTransferAnswer>(
              wanted,
              () =>
                method === 'interac'
                  ? startInterac(values.amount, confirmed.quote_id, key)
                  : startZelle(values.amount, confirmed.quote_id, key),
              keys,
            );
            if (outcome === 'requoted') setNotice(t('quote.changed'));
            else setAnswer(outcome);
          }}
        >
          <DigitsField
            name="amount"
            label={t('deposits.amount')}
            hint={currency === 'CAD' ? t('deposits.amount_hint_cad') : t('deposits.amount_hint_usd')}
            setValueAs={asWholeAmount}
            autoFocus
          />
          <QuoteSummary
            quote={quote}
            pending={ask !== null && isFetching}
            notice={notice}
            payLabel={t('deposits.you_send')}
            getLabel={t('deposits.coin_equivalent')}
          />
          <p className="notice">{t('deposits.within_60')}</p>
          <div className="buttons">
            <button type="button" className="button" onClick={onClose}>
              {t('deposits.close')}
            </button>
            <SubmitButton>{t('deposits.continue')}</SubmitButton>
          </div>
        </Form>
      </Dialog>
    );
  }
  const { deposit } = answer;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          {t('deposits.complete')}
        </button>
      }
    >
      {method === 'interac' && (
        <nav aria-label={t('deposits.interac_banks')} className="bank-links">
          {banks.map((bank) => (
            <a key={bank.name} href={bank.url} target="_blank" rel="noreferrer noopener">
              {bank.name}
            </a>
          ))}
        </nav>
      )}
      <ol className="steps">
        <li>{t('deposits.step_recipient')}</li>
        <li>{t('deposits.step_send')}</li>
        <li>{method === 'interac' ? t('deposits.step_security') : t('deposits.step_memo')}</li>
        <li>{t('deposits.step_wait')}</li>
      </ol>
      <Copyable label={t('deposits.recipient_name')} value={deposit.recipient.name} />
      <Copyable label={t('deposits.recipient_email')} value={deposit.recipient.email} />
      {deposit.security_question && (
        <Copyable label={t('deposits.security_question')} value={deposit.security_question} />
      )}
      {deposit.security_answer && <Copyable label={t('deposits.security_answer')} value={deposit.security_answer} />}
      <Copyable label={t('deposits.memo')} value={deposit.reference} />
      <dl className="summary">
        <dt>{t('deposits.amount')}</dt>
        <dd>{formatMoney(deposit.amount, deposit.currency)}</dd>
        <dt>{t('deposits.total_coins')}</dt>
        <dd data-testid="deposit-coins">{formatMoney(answer.quote.amount_out, 'CON')}</dd>
      </dl>
      <p className="notice">{t('deposits.within_60')}</p>
    </Dialog>
  );
}

type BitcoinDeposit = Awaited<ReturnType<typeof startBitcoin>>;

/**
 * Bitcoin step 1: the amount in dollars, the bitcoin rate and what is due,
 * and the coin quote (the dollars to coins) the deposit is credited at;
 * Proceed names both.
 */
function BitcoinDialog({ onClose, onViewPending }: { onClose: () => void; onViewPending: () => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(interacDepositRequest.pick({ amount: true }));
  const amount = validAmount(spec.form.watch('amount'));
  const { info, isFetching: rating } = useBitcoinInfo(amount);
  const [deposit, setDeposit] = useState<BitcoinDeposit | null>(null);
  const ask = info && !deposit ? depositAsk('USD', info.USDAmount) : null;
  const { quote, isFetching } = useQuote(ask);
  const [notice, setNotice] = useState<string | null>(null);
  const [keys] = useState(() => attemptKeys());

  if (deposit) return <BitcoinPayment deposit={deposit} onClose={onClose} onViewPending={onViewPending} />;
  return (
    <Dialog title={t('deposits.bitcoin_title')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          // Nothing is started before the rate and the coin quote for this amount have shown.
          if (!info || info.USDAmount !== values.amount * 100) return;
          const wanted = depositAsk('USD', info.USDAmount);
          const confirmed = await quoteShownFor(wanted, quote);
          if (!confirmed) return;
          setNotice(null);
          const key = keys.keyFor({ hash: info.hash });
          const outcome = await confirmAt(wanted, () => startBitcoin(info, confirmed.quote_id, key), keys);
          if (outcome === 'requoted') setNotice(t('quote.changed'));
          else setDeposit(outcome);
        }}
      >
        <DigitsField
          name="amount"
          label={t('deposits.amount')}
          hint={t('deposits.amount_hint_usd')}
          setValueAs={asWholeAmount}
          autoFocus
        />
        <QuoteSummary
          quote={quote}
          pending={amount !== null && (rating || isFetching)}
          notice={notice}
          payLabel={t('deposits.cost_usd')}
          getLabel={t('deposits.total_coins')}
        >
          {info && (
            <>
              <dt>{t('deposits.rate')}</dt>
              <dd>{t('deposits.rate_value', { usd: formatMoney(info.BTCtoUSD, 'USD') })}</dd>
              <dt>{t('deposits.cost_btc')}</dt>
              <dd>{`${formatBitcoin(info.totalBitcoinAmount)} BTC`}</dd>
            </>
          )}
        </QuoteSummary>
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('deposits.close')}
          </button>
          <SubmitButton>{t('deposits.proceed')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

/** Re-renders every second while mounted: the countdown's clock. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(new Date());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  return now;
}

function Countdown({ expiresAt }: { expiresAt: string }) {
  const { t } = useTranslation();
  const left = timeLeft(new Date(expiresAt), useNow());
  return (
    <p className="countdown" role="timer" aria-live="off">
      {left.expired ? t('deposits.expired') : t('deposits.time_left', { time: countdownText(left) })}
    </p>
  );
}

function BitcoinPayment({
  deposit,
  onClose,
  onViewPending,
}: {
  deposit: BitcoinDeposit;
  onClose: () => void;
  onViewPending: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('deposits.bitcoin_step2_title')}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onViewPending}>
          {t('deposits.view_pending_bitcoin')}
        </button>
      }
    >
      <div className="qr-box">
        <QrCodeImage text={deposit.qrCode} size={150} label={t('deposits.qr_label')} />
      </div>
      <Copyable label={t('deposits.address')} value={deposit.recipientIdentifier} />
      <dl className="summary">
        <dt>{t('deposits.total_due')}</dt>
        <dd data-testid="bitcoin-due">{formatBitcoin(deposit.expectedAmount)} BTC</dd>
        <dt>{t('deposits.cost_usd')}</dt>
        <dd>{formatMoney(deposit.expectedAmountCents, 'USD')}</dd>
      </dl>
      <p className="notice">{t('deposits.expires')}</p>
      <Countdown expiresAt={deposit.expiresAt} />
    </Dialog>
  );
}

function StatusText({ deposit }: { deposit: DepositSummary }) {
  const { t } = useTranslation();
  if (deposit.status === 'confirming')
    return <>{t('deposits.statuses.confirming', { count: deposit.bitcoin?.confirmations ?? 1 })}</>;
  return <>{t(`deposits.statuses.${deposit.status}`)}</>;
}

/**
 * The user's e-mail-transfer and bitcoin deposits, each state as it changes:
 * the live feed's `deposit` messages replace a row in place, so a payment
 * seen, a confirmation or an operator's clearing shows without a reload.
 * After the feed reconnects, the list is read afresh.
 */
function PendingDeposits({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { live } = useSnapshot(wallet);
  const list = useDeposits();

  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type !== 'deposit') return;
        queryClient.setQueryData<DepositSummary[]>(depositKeys.list(), (current) => {
          if (!current) return current;
          const others = current.filter((deposit) => deposit.tx_id !== message.deposit.tx_id);
          return [message.deposit, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at));
        });
      }),
    [],
  );
  // Read again when the feed reconnects: messages sent while it was down are gone.
  const [wasLive, setWasLive] = useState(live);
  if (live !== wasLive) {
    setWasLive(live);
    if (live) void queryClient.invalidateQueries({ queryKey: depositKeys.list() });
  }

  const body = (
    <QueryView
      query={list}
      loading={<PageLoader label={t('app.loading')} />}
      failed={(texts) => <ServerErrors texts={texts} />}
      isEmpty={(deposits) => deposits.length === 0}
      empty={<p className="empty">{t('deposits.pending_empty')}</p>}
    >
      {(deposits) => (
        <div className="table-scroll">
          <table className="deposits">
            <caption>{t('deposits.pending_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('deposits.date')}</th>
                <th scope="col">{t('deposits.method')}</th>
                <th scope="col">{t('deposits.amount')}</th>
                <th scope="col">{t('deposits.reference')}</th>
                <th scope="col">{t('deposits.status')}</th>
              </tr>
            </thead>
            <tbody>
              {deposits.map((deposit) => (
                <tr key={deposit.tx_id} data-testid={`deposit-${deposit.tx_id}`}>
                  <td>{formatDateTime(deposit.created_at)}</td>
                  <td>{t(`deposits.methods.${deposit.method}`)}</td>
                  <td>
                    {formatMoney(deposit.amount, deposit.currency)}
                    <br />
                    <small>{coinsLabel(Math.floor(deposit.coins / 100))}</small>
                  </td>
                  <td className="break">{deposit.reference}</td>
                  <td data-status={deposit.status}>
                    <StatusText deposit={deposit} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryView>
  );
  return (
    <Dialog title={t('deposits.pending_title')} onClose={onClose}>
      {body}
    </Dialog>
  );
}
