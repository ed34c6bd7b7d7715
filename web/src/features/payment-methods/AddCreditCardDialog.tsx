import { cardPayMethodRequest, type CardPayMethodRequest } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { LoadingOverlay } from '../../ui/feedback.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { AddressFields, emptyAddress } from './AddressFields.tsx';
import { CardEntry } from './CardEntry.tsx';
import { addPaymentMethod, useCardTokenizer, type CardForm } from './payment-methods-api.ts';

/** The shipping address is the billing one, under its shipping_ names (spec §3). */
const asShipping = (billing: CardPayMethodRequest['billing_address']) =>
  Object.fromEntries(Object.entries(billing).map(([key, value]) => [`shipping_${key}`, value])) as NonNullable<
    CardPayMethodRequest['shipping_address']
  >;

/**
 * The Add Credit Card modal (spec §2, §5 Credit card): the billing address
 * with its names, the shipping address (the billing one unless told
 * otherwise), the cardholder name, and the card itself in the tokenizer's
 * iframe.
 * The form checks the very schema the server checks the request with; it
 * closes on success (spec §4 "Payment-method modals").
 */
export function AddCreditCardDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const tokenizer = useCardTokenizer();
  const [sameShipping, setSameShipping] = useState(true);
  const spec = useSpecForm(cardPayMethodRequest, {
    type: 'CC',
    billing_address: emptyAddress,
    type_specific: { token: '', token_type: 'sandbox', cardholder_name: '', card_expiry: { month: '', year: '' } },
  } satisfies CardForm);

  const submit = async (request: CardPayMethodRequest) => {
    const { month, year } = request.type_specific.card_expiry;
    // The form checked the expiry as numbers; the request carries the selects' texts, as the server's schema reads them.
    const card_expiry = { month: String(month).padStart(2, '0'), year: String(year) };
    const shipping_address = sameShipping ? asShipping(request.billing_address) : request.shipping_address;
    await addPaymentMethod({ ...request, shipping_address, type_specific: { ...request.type_specific, card_expiry } });
    toast(t('payment_methods.card_added'));
    onClose();
  };

  return (
    <Dialog title={t('payment_methods.add_card_title')} onClose={onClose}>
      <Form spec={spec} onSubmit={submit}>
        <fieldset>
          <legend>{t('payment_methods.billing_address')}</legend>
          <AddressFields prefix="billing_address." />
        </fieldset>
        <label className="field field-checkbox">
          <input
            type="checkbox"
            checked={sameShipping}
            onChange={(event) => {
              setSameShipping(event.target.checked);
              // Out of the form while it is the billing address, so its rules do not apply.
              if (event.target.checked) spec.form.unregister('shipping_address');
            }}
          />
          {t('payment_methods.same_shipping')}
        </label>
        {!sameShipping && (
          <fieldset>
            <legend>{t('payment_methods.shipping_address')}</legend>
            <AddressFields prefix="shipping_address.shipping_" />
          </fieldset>
        )}
        <TextField
          name="type_specific.cardholder_name"
          label={t('payment_methods.cardholder_name')}
          autoComplete="cc-name"
        />
        <QueryView
          query={tokenizer}
          loading={<LoadingOverlay />}
          failed={() => (
            <p role="alert" className="server-errors">
              {t('payment_methods.tokenizer_failed')}
            </p>
          )}
        >
          {(detail) => <CardEntry tokenizerUrl={detail.tokenizer_url} />}
        </QueryView>
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('payment_methods.cancel')}
          </button>
          <SubmitButton>{t('payment_methods.save_card')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
