import { currencyCode, encodeQrPayload, qrGenerateForm, typedToMinor, type QrPayload } from '@peeks/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatMoney } from '../../lib/money.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { QrCodeImage } from '../../ui/QrCodeImage.tsx';
import { session } from '../session/index.ts';
import { onLiveMessage } from '../wallet/index.ts';
import { keepTypedAmount } from './qr-rules.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { qrCodesTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(qrCodesTexts);

/** Spec §9: the QR shows 1 second after a valid form. */
const QR_DELAY_MS = 1000;
const DEFAULTS = { amount: '', currency: 'USD' as const, comment: '' };

/**
 * /generate-qr-code (spec §2 Generate QR code): a merchant's counter. The
 * amount (digits and one point only), the currency and an order/sales/ID
 * comment make the QR payload; after a second the static 'Scan To Pay' modal
 * shows it. The live feed's sale of that amount, currency and comment, made
 * after the code was shown, is the payment arriving: the modal says so.
 * Cancel / Clear Transaction resets the form.
 */
export default function GenerateQrCode() {
  const { t } = useTranslation();
  const titleId = useId();
  const { user, merchant } = useSnapshot(session);
  const spec = useSpecForm(qrGenerateForm, DEFAULTS);
  const [shown, setShown] = useState<{ payload: QrPayload; since: number } | null>(null);
  const [paid, setPaid] = useState<string | null>(null);

  useEffect(() => {
    if (!shown) return;
    const minor = typedToMinor(shown.payload.amt, shown.payload.cur);
    return onLiveMessage((message) => {
      if (message.type !== 'activity') return;
      const sale = message.transaction;
      const matches =
        sale.debit_credit === 'C' &&
        sale.amount === minor &&
        sale.currency === shown.payload.cur &&
        (sale.reference ?? '') === shown.payload.comment;
      if (matches) setPaid(formatMoney(sale.amount, shown.payload.cur));
    });
  }, [shown]);

  if (!user) return null;
  const clear = () => {
    setShown(null);
    setPaid(null);
    spec.form.reset(DEFAULTS);
  };
  const choices = currencyCode.options
    .filter((code) => code !== 'IMP')
    .map((code) => ({ value: code, label: t(`currencies.${code}`) }));

  return (
    <section className="panel narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('generate_qr.title')}</h1>
      <dl className="summary">
        <dt>{t('generate_qr.merchant')}</dt>
        <dd>{merchant?.name ?? user.fullname ?? user.username}</dd>
        <dt>{t('generate_qr.merchant_id')}</dt>
        <dd>{user.merchant_id ?? user.user_id}</dd>
      </dl>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await new Promise((resolve) => setTimeout(resolve, QR_DELAY_MS));
          setPaid(null);
          setShown({
            payload: {
              amt: values.amount,
              gid: user.guser_id,
              uid: user.user_id,
              cur: values.currency,
              comment: values.comment,
            },
            since: Date.now(),
          });
        }}
      >
        <TextField
          name="amount"
          label={t('generate_qr.amount')}
          inputMode="decimal"
          autoComplete="off"
          onKeyDown={(event) => {
            // Only digits and one decimal point can be typed (spec §5); keys that edit or move pass.
            if (event.key.length !== 1 || event.ctrlKey || event.metaKey) return;
            const typed = event.currentTarget.value + event.key;
            if (keepTypedAmount(event.currentTarget.value, typed) !== typed) event.preventDefault();
          }}
        />
        <SelectField
          name="currency"
          label={t('generate_qr.currency')}
          placeholder={t('transfer.choose_currency')}
          choices={choices}
        />
        <TextField name="comment" label={t('generate_qr.comment')} autoComplete="off" />
        <div className="buttons">
          <SubmitButton>{t('generate_qr.create')}</SubmitButton>
        </div>
      </Form>
      {shown && (
        <Dialog
          title={t('generate_qr.scan_to_pay')}
          footer={
            <>
              <button type="button" className="button" onClick={clear}>
                {t('generate_qr.cancel')}
              </button>
              <button type="button" className="button primary" onClick={clear}>
                {t('generate_qr.go')}
              </button>
            </>
          }
        >
          <div className="qr-box">
            <QrCodeImage text={encodeQrPayload(shown.payload)} size={225} label={t('generate_qr.qr_label')} />
          </div>
          <p>
            {formatMoney(typedToMinor(shown.payload.amt, shown.payload.cur) ?? 0, shown.payload.cur)}
            {shown.payload.comment && ` · ${shown.payload.comment}`}
          </p>
          <p role="status" aria-live="polite" className={paid ? 'paid' : 'waiting'}>
            {paid ? t('generate_qr.paid', { amount: paid }) : t('generate_qr.waiting')}
          </p>
        </Dialog>
      )}
    </section>
  );
}
