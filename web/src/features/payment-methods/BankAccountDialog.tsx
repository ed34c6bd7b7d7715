import { bankAccountTypes, bankPayMethodRequest } from '@peeks/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DigitsField, SelectField, TextField } from '../../ui/fields.tsx';
import { useSpecForm } from '../../ui/form.tsx';
import { AccountDialog } from './AccountDialog.tsx';
import { emptyAddress } from './AddressFields.tsx';

type BankForm = z.input<typeof bankPayMethodRequest>;

/** Spec §5 "Bank account": Canada asks for transit and institution numbers, elsewhere the routing number and account type. */
const CANADIAN = ['transit_no', 'institution_no'] as const;
const ELSEWHERE = ['routing_no', 'account_type'] as const;

/**
 * The Add Bank Account modal (spec §2, §4, §5 Bank account): the account
 * holder's address, the account number, and the bank fields of the
 * address's country, each shown only for it. Closes on success.
 */
export function BankAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(bankPayMethodRequest, {
    type: 'CHQ',
    billing_address: emptyAddress,
    type_specific: { account_no: '', cardholder_name: '' },
  } satisfies BankForm);
  const canadian = spec.form.watch('billing_address.country') === 'CA';
  const { unregister } = spec.form;

  useEffect(() => {
    // The other country's fields leave the form with their inputs, so their rules do not apply.
    unregister((canadian ? ELSEWHERE : CANADIAN).map((field) => `type_specific.${field}` as const));
  }, [canadian, unregister]);

  return (
    <AccountDialog
      title={t('payment_methods.add_bank_title')}
      spec={spec}
      saved={t('payment_methods.bank_added')}
      saveLabel={t('payment_methods.save_bank')}
      onClose={onClose}
    >
      <fieldset>
        <legend>{t('payment_methods.bank_details')}</legend>
        <TextField
          name="type_specific.cardholder_name"
          label={t('payment_methods.account_holder_name')}
          autoComplete="name"
        />
        <DigitsField name="type_specific.account_no" label={t('payment_methods.account_no')} />
        {canadian ? (
          <>
            <DigitsField key="transit_no" name="type_specific.transit_no" label={t('payment_methods.transit_no')} />
            <DigitsField
              key="institution_no"
              name="type_specific.institution_no"
              label={t('payment_methods.institution_no')}
            />
          </>
        ) : (
          <>
            <DigitsField key="routing_no" name="type_specific.routing_no" label={t('payment_methods.routing_no')} />
            <SelectField
              name="type_specific.account_type"
              label={t('payment_methods.account_type')}
              placeholder={t('payment_methods.choose_account_type')}
              choices={bankAccountTypes.map((type) => ({
                value: type,
                label: t(`payment_methods.account_types.${type}`),
              }))}
            />
          </>
        )}
      </fieldset>
    </AccountDialog>
  );
}
