import { wirePayMethodRequest } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { useFormContext } from 'react-hook-form';
import { useSnapshot } from 'valtio';
import { DigitsField, FieldShell, TextField } from '../../ui/fields.tsx';
import { useSpecForm } from '../../ui/form.tsx';
import { session } from '../session/index.ts';
import { AccountDialog } from './AccountDialog.tsx';
import { emptyAddress, RegionFields } from './AddressFields.tsx';

const BANK = 'type_specific.instructions.';

/**
 * The Add Wire Account modal (spec §2, §4, §5 Wire bank fields): the
 * holder's address, its country the user's own to begin with, and the
 * bank's name, address, account number, SWIFT, IBAN and unit number, sent
 * as the method's `instructions` (§3). Closes on success.
 */
export function WireAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const spec = useSpecForm(wirePayMethodRequest, {
    type: 'WIRE',
    billing_address: { ...emptyAddress, country: user?.country ?? '' },
    type_specific: {
      account_no: '',
      instructions: {
        bank_name: '',
        bank_address: '',
        bank_city: '',
        bank_province: '',
        bank_postal_code: '',
        bank_country: '',
        account_no: '',
        bank_swift_code: '',
        iban_no: '',
        unit_no: '',
      },
    },
  });

  return (
    <AccountDialog
      title={t('payment_methods.add_wire_title')}
      spec={spec}
      saved={t('payment_methods.wire_added')}
      saveLabel={t('payment_methods.save_wire')}
      onClose={onClose}
    >
      <fieldset>
        <legend>{t('payment_methods.wire_bank')}</legend>
        <TextField name={`${BANK}bank_name`} label={t('payment_methods.bank_name')} />
        <TextField name={`${BANK}bank_address`} label={t('payment_methods.bank_address')} />
        <TextField name={`${BANK}bank_city`} label={t('payment_methods.bank_city')} />
        <RegionFields
          names={{
            country: `${BANK}bank_country`,
            province: `${BANK}bank_province`,
            postal: `${BANK}bank_postal_code`,
          }}
          labels={{
            country: t('payment_methods.bank_country'),
            province: t('payment_methods.bank_province'),
            postal: t('payment_methods.bank_postal_code'),
          }}
        />
        <AccountNumberField />
        <TextField name={`${BANK}bank_swift_code`} label={t('payment_methods.swift_code')} />
        <TextField name={`${BANK}iban_no`} label={t('payment_methods.iban')} />
        <DigitsField name={`${BANK}unit_no`} label={t('payment_methods.unit_no')} />
      </fieldset>
    </AccountDialog>
  );
}

/** The account number goes both in the instructions and beside them (spec §3 Wire: account_no, instructions); one field fills both. */
function AccountNumberField() {
  const { t } = useTranslation();
  const { register, setValue } = useFormContext();
  const name = `${BANK}account_no`;
  const registered = register(name);
  return (
    <FieldShell name={name} label={t('payment_methods.account_no')}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={invalid}
          {...registered}
          onChange={(event) => {
            setValue('type_specific.account_no', event.target.value);
            void registered.onChange(event);
          }}
        />
      )}
    </FieldShell>
  );
}
