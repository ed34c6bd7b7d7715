import {
  currencyCode,
  errorCatalogue,
  errorCodes,
  paymentComment,
  TRANSFER_AMOUNT_MAX_CHARS,
  transferAmountForm,
  type Currency,
  type Recipient,
  type TransferAmount,
} from '@peeks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryName } from '../../ui/geo.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Avatar } from '../../ui/Avatar.tsx';
import { CoinQuoteLine, coinQuoteKeys, isCashPrice, isStaleQuote, useCoinQuote } from '../../ui/CoinQuote.tsx';
import { useSnapshot } from 'valtio';
import { session } from '../session/index.ts';
import { refreshBalance, useBalance } from '../wallet/index.ts';
import { formatFee, formatMoney, minorToTyped } from '../../lib/money.ts';
import { sendFund, useRecipient } from './transfer-api.ts';

/** The fee of a transfer: none today, shown as $0.00 (spec §2, §9). */
const TRANSFER_FEE = 0;
/** Send-fund's own default (spec §7); the page's `cur` names another. */
const DEFAULT_CURRENCY: Currency = 'CON';
/** The currencies a person sends; impressions are not money people pass on. */
const SENDABLE: readonly Currency[] = ['CON', 'USD', 'CAD'];

/** One press of Complete Transfer and its retries: the same key each time, so the server moves the money once. */
interface Attempt {
  transfer: TransferAmount;
  idempotencyKey: string;
}

/** What the amount field and the currency select hold. */
interface Typed {
  amount: string;
  currency: Currency;
}

/** The process modal's states (spec §4 Funds). */
type Process =
  | { stage: 'sending'; attempt: Attempt }
  | { stage: 'completed'; attempt: Attempt; paid: { amount: number; currency: Currency } }
  | { stage: 'failed'; attempt: Attempt; errors: readonly string[] };

type Stage = { stage: 'amount'; typed: Typed } | { stage: 'confirm'; attempt: Attempt; notice?: string } | Process;

/**
 * The page's `amt` and `cur` as the amount form's first values. `amt` is in
 * units of `cur` as a person types them, as the QR payload carries it
 * (docs/architecture/qr-payload.md): `amt=7&cur=USD` is seven dollars.
 * Anything that is not a typed amount leaves the field empty.
 */
function typedFromQuery(amt: string | null, cur: string | null): { fixedCurrency: Currency | null; typed: Typed } {
  const currency = currencyCode.safeParse(cur);
  const fixed = currency.success ? currency.data : null;
  const amount = amt !== null && amt.length <= TRANSFER_AMOUNT_MAX_CHARS && /^\d+(\.\d*)?$/.test(amt) ? amt : '';
  return { fixedCurrency: fixed, typed: { amount, currency: fixed ?? DEFAULT_CURRENCY } };
}

/** The order/sales/ID comment a scanned QR code carries to the payment, when it is one send-fund takes. */
function commentFromQuery(text: string | null): { comment?: string } {
  const comment = paymentComment.safeParse(text ?? '');
  return comment.success && comment.data !== '' ? { comment: comment.data } : {};
}

/**
 * /transfer-fund?gid&uid&amt&cur (spec §2 Transfer fund, §4 Funds): the
 * recipient is looked up ('User not found' if that fails), then the amount
 * modal, the confirmation (Recipient, Amount, Fee, Total) and the process
 * modal (Processing, Transfer Completed, Transfer Failed). Each confirmation
 * is one attempt with one Idempotency-Key: a double click sends once.
 * Retry Transaction goes to / as the spec says; a new transfer is a new attempt.
 */
export default function TransferFund() {
  const { t } = useTranslation();
  const titleId = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const gid = params.get('gid');
  const lookup = useRecipient(gid, params.get('uid'));
  const { user } = useSnapshot(session);
  const toSelf = gid !== null && gid === user?.guser_id;
  const notAUser = gid === null || gid === '';
  const [first] = useState(() => typedFromQuery(params.get('amt'), params.get('cur')));
  const [comment] = useState(() => commentFromQuery(params.get('comment')));
  const [stage, setStage] = useState<Stage>({ stage: 'amount', typed: first.typed });
  const sending = useRef(false);
  const queryClient = useQueryClient();

  const leave = () => {
    // Go Back: where the user came from (Contacts, a scanned code), or the dashboard when the page was opened directly.
    if (location.key === 'default') void navigate('/');
    else void navigate(-1);
  };

  const send = async (recipient: Recipient, attempt: Attempt, quoteId: string | null) => {
    if (sending.current) return;
    sending.current = true;
    setStage({ stage: 'sending', attempt });
    try {
      const transaction = await sendFund(
        { guser_id: recipient.guser_id, ...attempt.transfer, ...comment, ...(quoteId ? { quote_id: quoteId } : {}) },
        attempt.idempotencyKey,
      );
      // What left the wallet: the coins, for a dollar amount paid from them.
      setStage({ stage: 'completed', attempt, paid: { amount: transaction.amount, currency: transaction.currency } });
      void refreshBalance();
    } catch (error) {
      if (isStaleQuote(error)) {
        // The quote ran out before the confirm reached the server: show a fresh one, and confirm again as a new attempt.
        void queryClient.invalidateQueries({ queryKey: coinQuoteKeys.all });
        setStage({
          stage: 'confirm',
          attempt: { ...attempt, idempotencyKey: crypto.randomUUID() },
          notice: t('transfer.quote_changed'),
        });
        return;
      }
      setStage({
        stage: 'failed',
        attempt,
        errors: error instanceof ApiError ? error.texts : [t('errors.something_went_wrong')],
      });
    } finally {
      sending.current = false;
    }
  };

  return (
    <section className="panel narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('screens.transfer_fund')}</h1>
      {lookup.status === 'loading' && <PageLoader label={t('transfer.looking_up')} />}
      {(lookup.status === 'missing' || toSelf) && (
        <Dialog
          title={t('transfer.user_not_found')}
          footer={
            <>
              {notAUser && !toSelf && (
                <Link to="/contacts" className="button">
                  {t('transfer.view_contacts')}
                </Link>
              )}
              <Link to="/" className="button primary">
                {t('transfer.go_back')}
              </Link>
            </>
          }
        >
          {/* Why, and what to do instead: the spec's title alone left people stuck. */}
          <p>{toSelf ? t('transfer.to_self') : notAUser ? t('transfer.not_a_user') : t('transfer.user_not_found')}</p>
        </Dialog>
      )}
      {lookup.status === 'found' && !toSelf && (
        <>
          {stage.stage === 'amount' && (
            <AmountDialog
              recipient={lookup.recipient}
              typed={stage.typed}
              fixedCurrency={first.fixedCurrency}
              onBack={leave}
              onNext={(transfer) => {
                setStage({ stage: 'confirm', attempt: { transfer, idempotencyKey: crypto.randomUUID() } });
              }}
            />
          )}
          {stage.stage === 'confirm' && (
            <ConfirmDialog
              recipient={lookup.recipient}
              transfer={stage.attempt.transfer}
              memo={comment.comment ?? null}
              notice={stage.notice ?? null}
              onBack={() => {
                setStage({
                  stage: 'amount',
                  typed: {
                    amount: minorToTyped(stage.attempt.transfer.amount, stage.attempt.transfer.currency),
                    currency: stage.attempt.transfer.currency,
                  },
                });
              }}
              onComplete={(quoteId) => void send(lookup.recipient, stage.attempt, quoteId)}
            />
          )}
          {(stage.stage === 'sending' || stage.stage === 'completed' || stage.stage === 'failed') && (
            <ProcessDialog
              recipient={lookup.recipient}
              stage={stage}
              onClose={() => void navigate('/')}
              onRetry={() => void navigate('/')}
            />
          )}
        </>
      )}
    </section>
  );
}

/** A merchant's QR pays the shop: its display name, not its user's. */
const recipientName = (recipient: Recipient) => recipient.shop_name ?? recipient.fullname ?? recipient.username;

function RecipientCard({ recipient }: { recipient: Recipient }) {
  const { i18n } = useTranslation();
  const place = [recipient.city, countryName(recipient.country, i18n.language)].filter(Boolean).join(', ');
  return (
    <div className="recipient-card">
      <Avatar user={{ avatar: recipient.avatar, username: recipientName(recipient) }} size={48} />
      <div>
        <strong>{recipientName(recipient)}</strong>
        <span>{place}</span>
      </div>
    </div>
  );
}

function AmountDialog({
  recipient,
  typed,
  fixedCurrency,
  onBack,
  onNext,
}: {
  recipient: Recipient;
  typed: Typed;
  fixedCurrency: Currency | null;
  onBack: () => void;
  onNext: (transfer: TransferAmount) => void;
}) {
  const { t } = useTranslation();
  const spec = useSpecForm(transferAmountForm, typed);
  const { data: balance } = useBalance();
  /** What the sender has available in a currency; a transfer above it is stopped here, not at the confirmation. */
  const available = (currency: Currency) =>
    balance?.balances.find((line) => line.currency === currency)?.available_balance ?? 0;
  const choices = SENDABLE.map((code) => ({ value: code, label: t(`currencies.${code}`) }));
  return (
    <Dialog title={t('transfer.amount_title')} onClose={onBack}>
      <RecipientCard recipient={recipient} />
      <Form
        spec={spec}
        onSubmit={(transfer) => {
          // A dollar amount the dollars do not cover can be paid from coins: the confirmation quotes it.
          const coinsMayPay = isCashPrice(transfer) && available('CON') > 0;
          if (transfer.amount > available(transfer.currency) && !coinsMayPay) {
            spec.form.setError('amount', { type: 'server', message: errorCatalogue[errorCodes.insufficientFunds] });
          } else onNext(transfer);
          return Promise.resolve();
        }}
      >
        <TextField
          name="amount"
          label={fixedCurrency ? `${t('transfer.amount')} (${t(`currencies.${fixedCurrency}`)})` : t('transfer.amount')}
          inputMode="decimal"
          autoComplete="off"
        />
        {!fixedCurrency && (
          <SelectField
            name="currency"
            label={t('transfer.currency')}
            placeholder={t('transfer.choose_currency')}
            choices={choices}
          />
        )}
        <p className="notice">{t('transfer.notice')}</p>
        <div className="buttons">
          <button type="button" className="button" onClick={onBack}>
            {t('transfer.go_back')}
          </button>
          <SubmitButton>{t('transfer.send')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

function ConfirmDialog({
  recipient,
  transfer,
  memo,
  notice,
  onBack,
  onComplete,
}: {
  recipient: Recipient;
  transfer: TransferAmount;
  memo: string | null;
  notice: string | null;
  onBack: () => void;
  onComplete: (quoteId: string | null) => void;
}) {
  const { t } = useTranslation();
  const { data: balance } = useBalance();
  const available = (currency: Currency) =>
    balance?.balances.find((line) => line.currency === currency)?.available_balance ?? 0;
  // A dollar price the dollars do not cover is paid from coins, at the quote shown here.
  const price = isCashPrice(transfer) && transfer.amount > available(transfer.currency) ? transfer : null;
  const quote = useCoinQuote(price);
  const coinsShort = price !== null && quote.data !== undefined && quote.data.amount_in > available('CON');
  const ready = price === null || (quote.data !== undefined && !coinsShort);
  return (
    <Dialog
      title={t('transfer.confirm_title')}
      onClose={onBack}
      footer={
        <>
          <button type="button" className="button" onClick={onBack}>
            {t('transfer.go_back')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={!ready}
            onClick={() => {
              onComplete(price ? (quote.data?.quote_id ?? null) : null);
            }}
          >
            {t('transfer.complete')}
          </button>
        </>
      }
    >
      {notice && (
        <p role="alert" className="notice">
          {notice}
        </p>
      )}
      <dl className="summary">
        <dt>{t('transfer.recipient')}</dt>
        <dd>{recipientName(recipient)}</dd>
        {memo && (
          <>
            <dt>{t('transfer.memo')}</dt>
            <dd>{memo}</dd>
          </>
        )}
        <dt>{t('transfer.amount')}</dt>
        <dd>{formatMoney(transfer.amount, transfer.currency)}</dd>
        <dt>{t('transfer.fee')}</dt>
        <dd>{formatFee(TRANSFER_FEE)}</dd>
        <dt>{t('transfer.total')}</dt>
        <dd>{formatMoney(transfer.amount + TRANSFER_FEE, transfer.currency)}</dd>
        {price && (
          <>
            <dt>{t('transfer.paid_from_coins')}</dt>
            <dd>
              {quote.data ? (
                <CoinQuoteLine quote={quote.data} />
              ) : quote.isError ? (
                t('transfer.quote_failed')
              ) : (
                t('transfer.quote_loading')
              )}
            </dd>
          </>
        )}
      </dl>
      {coinsShort && (
        <p role="alert" className="notice">
          {t('transfer.coins_short')}
        </p>
      )}
    </Dialog>
  );
}

/** Static while the transfer runs; then Close goes to /, and so does a failure's Retry Transaction (spec §4 Funds). */
function ProcessDialog({
  recipient,
  stage,
  onClose,
  onRetry,
}: {
  recipient: Recipient;
  stage: Process;
  onClose: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const { transfer } = stage.attempt;
  if (stage.stage === 'sending') {
    return (
      <Dialog key="sending" title={t('transfer.processing')}>
        <PageLoader label={t('transfer.processing')} />
      </Dialog>
    );
  }
  const close = (
    <button type="button" className="button" onClick={onClose}>
      {t('transfer.close')}
    </button>
  );
  if (stage.stage === 'completed') {
    return (
      <Dialog key="completed" title={t('transfer.completed')} footer={close}>
        <p role="status">
          {t('transfer.completed_body', {
            amount: formatMoney(transfer.amount, transfer.currency),
            recipient: recipientName(recipient),
          })}
          {stage.paid.currency !== transfer.currency &&
            ` ${t('transfer.paid_with', { amount: formatMoney(stage.paid.amount, stage.paid.currency) })}`}
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog
      key="failed"
      title={t('transfer.failed')}
      footer={
        <>
          {close}
          <button type="button" className="button primary" onClick={onRetry}>
            {t('transfer.retry')}
          </button>
        </>
      }
    >
      {/* The dialog's title already says 'Transfer Failed'; the body says only why. */}
      <ul role="alert" className="failure-reasons">
        {stage.errors.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </Dialog>
  );
}
