import { errorCodes, transferAmountForm, type Contact } from '@peeks/contracts';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney } from '../../lib/money.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { countryName } from '../../ui/geo.ts';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { toast } from '../../ui/toasts.tsx';
import { refreshBalance, useBalance } from '../wallet/index.ts';
import { sendFund, useSendFundsChoices } from './transfer-api.ts';

const WALLET = 'wallet';

const nameOf = (contact: Contact) => `${contact.name_first} ${contact.name_last}`;

/** The recipient card (spec §2): name, city, country and account number. */
function RecipientCard({ contact }: { contact: Contact }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="recipient-card" aria-label={t('transfer.send_funds.recipient')}>
      <Avatar user={{ avatar: contact.avatar, username: contact.name_first }} size={48} />
      <dl className="summary">
        <div>
          <dt>{t('transfer.send_funds.name')}</dt>
          <dd>{nameOf(contact)}</dd>
        </div>
        <div>
          <dt>{t('transfer.send_funds.city')}</dt>
          <dd>{contact.city}</dd>
        </div>
        <div>
          <dt>{t('transfer.send_funds.country')}</dt>
          <dd>{countryName(contact.country, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('transfer.send_funds.account_number')}</dt>
          <dd>{contact.account_no ?? contact.user_id}</dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * The Send Funds dialog (spec §2 "Sending Funds"): pay from the wallet or a
 * stored card, to a contact who has an account, an amount in coins; Send
 * and Close. Nothing is sent while the amount is empty, malformed or, from
 * the wallet, above the available balance. One Idempotency-Key per attempt:
 * a double click or a retry after a lost answer sends once.
 */
export function SendFundsDialog({ contact, onClose }: { contact?: Contact | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: balance } = useBalance();
  const [recipientsRead, cardsRead] = useSendFundsChoices();
  const [recipientId, setRecipientId] = useState(contact?.contact_id.toString() ?? '');
  const [source, setSource] = useState(WALLET);
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ recipient?: string | undefined; amount?: string | undefined }>({});
  const [serverErrors, setServerErrors] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  const keys = useRef(attemptKeys());

  // A list that could not be read says why where the send's own refusal would.
  const failedRead = [recipientsRead, cardsRead].find((read) => read.isError);
  const loading = failedRead === undefined && (recipientsRead.isPending || cardsRead.isPending);
  const shownErrors =
    serverErrors.length > 0 || !failedRead
      ? serverErrors
      : failedRead.error instanceof ApiError
        ? failedRead.error.texts
        : [t('errors.something_went_wrong')];

  const recipients = recipientsRead.data ?? [];
  const recipient = contact ?? recipients.find((each) => String(each.contact_id) === recipientId);
  const available = balance?.available_balance ?? 0;

  const send = async (event: SyntheticEvent) => {
    event.preventDefault();
    setServerErrors([]);
    const found: typeof errors = {};
    if (!recipient?.guser_id) found.recipient = t('transfer.send_funds.choose_recipient_error');
    const parsed = transferAmountForm.safeParse({ amount, currency: 'CON' });
    if (!parsed.success) found.amount = parsed.error.issues[0]?.message;
    else if (source === WALLET && parsed.data.amount > available)
      found.amount = t(`error_codes.${String(errorCodes.insufficientFunds)}` as 'error_codes.42201');
    setErrors(found);
    if (!parsed.success || found.recipient || found.amount || !recipient?.guser_id) return;

    const request = {
      guser_id: recipient.guser_id,
      amount: parsed.data.amount,
      currency: parsed.data.currency,
      ...(source === WALLET ? {} : { paymentMethodId: Number(source) }),
    };
    setBusy(true);
    try {
      await sendFund(request, keys.current.keyFor(request));
      keys.current.settled(200);
      toast(
        t('transfer.send_funds.sent', {
          amount: formatMoney(parsed.data.amount, 'CON'),
          recipient: nameOf(recipient),
        }),
      );
      void refreshBalance();
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        keys.current.settled(error.status);
        setServerErrors(error.texts);
      } else setServerErrors([t('errors.something_went_wrong')]);
    } finally {
      setBusy(false);
    }
  };

  const cards = cardsRead.data ?? [];
  const noRecipients = !loading && !contact && recipients.length === 0;
  return (
    <Dialog
      title={t('transfer.send_funds.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('transfer.send_funds.close')}</Button>
          <Button type="submit" form="send-funds" variant="primary" busy={busy} disabled={noRecipients}>
            {t('transfer.send_funds.send')}
          </Button>
        </>
      }
    >
      <ServerErrors texts={shownErrors} title={null} />
      {loading ? (
        <Skeleton lines={4} label={t('transfer.send_funds.loading')} />
      ) : noRecipients ? (
        <div className="empty-state">
          <p className="empty-title">{t('transfer.send_funds.no_recipients')}</p>
          <Link to="/add-recipient" className={buttonClass('primary')}>
            {t('transfer.send_funds.add_recipient')}
          </Link>
        </div>
      ) : (
        <form id="send-funds" className="spec-form" onSubmit={(event) => void send(event)} noValidate>
          {!contact && (
            <Select
              label={t('transfer.send_funds.recipient')}
              value={recipientId}
              error={errors.recipient}
              onChange={(event) => {
                setRecipientId(event.target.value);
              }}
              options={[
                { value: '', label: t('transfer.send_funds.choose_recipient') },
                ...recipients.map((each) => ({ value: String(each.contact_id), label: nameOf(each) })),
              ]}
            />
          )}
          {recipient && <RecipientCard contact={recipient} />}
          <Select
            label={t('transfer.send_funds.source')}
            value={source}
            onChange={(event) => {
              setSource(event.target.value);
            }}
            options={[
              {
                value: WALLET,
                label: t('transfer.send_funds.wallet_source', { available: formatMoney(available, 'CON') }),
              },
              ...cards.map((card) => ({
                value: String(card.payment_method_id),
                label: `${card.brand} ${card.number}`,
              })),
            ]}
          />
          <Input
            label={t('transfer.send_funds.amount')}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            error={errors.amount}
            hint={source === WALLET ? undefined : t('transfer.send_funds.card_hint')}
            onChange={(event) => {
              setAmount(event.target.value);
              setServerErrors([]);
              // A new amount is checked again on Send; the old message no longer applies.
              setErrors((before) => ({ ...before, amount: undefined }));
            }}
          />
        </form>
      )}
    </Dialog>
  );
}
