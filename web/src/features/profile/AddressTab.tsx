import { addAddressRequest, type Address } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from 'react-hook-form';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryChoices } from '../../ui/geo.ts';
import { provinceChoices } from '../../ui/provinces.ts';
import { toast } from '../../ui/toasts.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CardsTab } from './CardsTab.tsx';
import { addAddress, deleteAddress, useAddresses, updateAddress } from './profile-api.ts';

type Open = { dialog: 'none' } | { dialog: 'form'; address?: Address } | { dialog: 'delete'; address: Address };

/** The Address tab (spec §2, §4 "Address modal"): cards 'Address n' with edit and delete, 'You have 0 Address'. */
export function AddressTab() {
  const { t } = useTranslation();
  const addresses = useAddresses();
  const [open, setOpen] = useState<Open>({ dialog: 'none' });
  const close = () => {
    setOpen({ dialog: 'none' });
  };
  return (
    <CardsTab
      headingId="address-title"
      title={t('profile.tabs.address')}
      addLabel={t('profile.address.add')}
      onAdd={() => {
        setOpen({ dialog: 'form' });
      }}
      empty={t('profile.address.empty')}
      loaded={addresses}
      keyOf={(address) => address.address_id}
      card={(address, index) => (
        <>
          <h3>
            {t('profile.address.card', { n: index + 1 })}
            {address.is_primary && <span className="badge">{t('profile.address.primary')}</span>}
          </h3>
          <p>
            {address.name_first} {address.name_last}
            <br />
            {address.address1}
            {address.address2 ? `, ${address.address2}` : ''}
            <br />
            {address.city}, {address.province_state} {address.postal_code}, {address.country}
          </p>
          <div className="row-actions">
            <button
              type="button"
              className="button small"
              onClick={() => {
                setOpen({ dialog: 'form', address });
              }}
            >
              {t('profile.edit')}
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => {
                setOpen({ dialog: 'delete', address });
              }}
            >
              {t('profile.delete')}
            </button>
          </div>
        </>
      )}
    >
      {open.dialog === 'form' && (
        <AddressDialog
          {...(open.address ? { address: open.address } : {})}
          first={addresses.data?.length === 0}
          onSaved={(message) => {
            toast(message);
            close();
          }}
          onClose={close}
        />
      )}
      {open.dialog === 'delete' && (
        <ConfirmDialog
          title={t('profile.address.delete_title')}
          question={t('profile.delete_question')}
          confirm={t('profile.delete_confirm')}
          cancel={t('profile.cancel')}
          onConfirm={async () => {
            await deleteAddress(open.address.address_id);
            toast(t('profile.address.deleted'));
            close();
          }}
          onClose={close}
        />
      )}
    </CardsTab>
  );
}

/** The modal titled Address: Save Address or Update Address. A new address is primary only when the list is empty (spec §4). */
function AddressDialog({
  address,
  first,
  onSaved,
  onClose,
}: {
  address?: Address;
  first: boolean;
  onSaved: (message: string) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const spec = useSpecForm(addAddressRequest, {
    name_first: address?.name_first ?? '',
    name_last: address?.name_last ?? '',
    address1: address?.address1 ?? '',
    address2: address?.address2 ?? '',
    city: address?.city ?? '',
    province_state: address?.province_state ?? '',
    postal_code: address?.postal_code ?? '',
    country: address?.country ?? '',
  });
  return (
    <Dialog title={t('profile.address.title')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          if (address) {
            await updateAddress({ ...values, address_id: address.address_id, is_primary: address.is_primary });
            onSaved(t('profile.address.updated'));
          } else {
            await addAddress({ ...values, is_primary: first });
            onSaved(t('profile.address.added'));
          }
        }}
      >
        <TextField name="name_first" label={t('profile.first_name')} autoComplete="given-name" />
        <TextField name="name_last" label={t('profile.last_name')} autoComplete="family-name" />
        <TextField name="address1" label={t('profile.merchant.address1')} autoComplete="address-line1" />
        <TextField name="address2" label={t('profile.merchant.address2')} autoComplete="address-line2" />
        <TextField name="city" label={t('profile.address.city')} autoComplete="address-level2" />
        <SelectField
          name="country"
          label={t('profile.address.country')}
          choices={countryChoices(i18n.language)}
          placeholder={t('profile.address.choose_country')}
        />
        <ProvinceField />
        <TextField name="postal_code" label={t('profile.address.postal')} autoComplete="postal-code" />
        <SubmitButton>{address ? t('profile.address.update') : t('profile.address.save')}</SubmitButton>
      </Form>
    </Dialog>
  );
}

function ProvinceField() {
  const { t } = useTranslation();
  const country = useWatch({ name: 'country' }) as string;
  const choices = provinceChoices(country);
  if (choices)
    return (
      <SelectField
        name="province_state"
        label={t('profile.address.province')}
        choices={choices}
        placeholder={t('profile.address.choose_province')}
      />
    );
  return <TextField name="province_state" label={t('profile.address.province')} autoComplete="address-level1" />;
}
