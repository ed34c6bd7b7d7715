import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form, SubmitButton, type SpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { AddressFields } from './AddressFields.tsx';
import { addPaymentMethod, type PaymentMethodRequest } from './payment-methods-api.ts';

export interface AccountDialogProps<Input extends FieldValues, Output extends PaymentMethodRequest> {
  title: string;
  spec: SpecForm<Input, Output>;
  /** The toast once saved. */
  saved: string;
  saveLabel: string;
  onClose: () => void;
  /** The bank's own fields, under the account holder's address. */
  children: ReactNode;
}

/**
 * What the Add Bank Account and Add Wire Account modals share: the account
 * holder's address, their bank fields, Cancel and Save; saving adds the
 * method, says so and closes.
 */
export function AccountDialog<Input extends FieldValues, Output extends PaymentMethodRequest>({
  title,
  spec,
  saved,
  saveLabel,
  onClose,
  children,
}: AccountDialogProps<Input, Output>) {
  const { t } = useTranslation();
  const submit = async (request: Output) => {
    await addPaymentMethod(request);
    toast(saved);
    onClose();
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <Form spec={spec} onSubmit={submit}>
        <fieldset>
          <legend>{t('payment_methods.account_holder')}</legend>
          <AddressFields prefix="billing_address." />
        </fieldset>
        {children}
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('payment_methods.cancel')}
          </button>
          <SubmitButton>{saveLabel}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
