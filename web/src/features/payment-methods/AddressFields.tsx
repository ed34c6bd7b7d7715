import { useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { countryChoices } from '../../ui/geo.ts';
import { provinceChoices } from '../../ui/provinces.ts';

/** A blank address for a modal's defaults. */
export const emptyAddress = {
  name_first: '',
  name_last: '',
  address1: '',
  address2: '',
  city: '',
  province: '',
  postal_code: '',
  country: '',
};

/** A payment method's address (spec §3 billing_address): names, street, city, then its region. */
export function AddressFields({ prefix }: { prefix: string }) {
  const { t } = useTranslation();
  const name = (field: string) => `${prefix}${field}`;
  return (
    <>
      <TextField name={name('name_first')} label={t('payment_methods.first_name')} autoComplete="given-name" />
      <TextField name={name('name_last')} label={t('payment_methods.last_name')} autoComplete="family-name" />
      <TextField name={name('address1')} label={t('payment_methods.address1')} autoComplete="address-line1" />
      <TextField name={name('address2')} label={t('payment_methods.address2')} autoComplete="address-line2" />
      <TextField name={name('city')} label={t('payment_methods.city')} autoComplete="address-level2" />
      <RegionFields
        names={{ country: name('country'), province: name('province'), postal: name('postal_code') }}
        labels={{
          country: t('payment_methods.country'),
          province: t('payment_methods.province'),
          postal: t('payment_methods.postal_code'),
        }}
      />
    </>
  );
}

type Region = Record<'country' | 'province' | 'postal', string>;

/**
 * Country, province and postal code. Provinces and states come from the
 * country's list where it has one (US, CA) and are typed otherwise;
 * changing the country clears the province. The postal code's rule
 * depends on the country (spec §5).
 */
export function RegionFields({ names, labels }: { names: Region; labels: Region }) {
  const { t, i18n } = useTranslation();
  const { watch, setValue } = useFormContext();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  const country: unknown = watch(names.country);
  const provinces = provinceChoices(typeof country === 'string' ? country : '');
  return (
    <>
      <SelectField
        name={names.country}
        label={labels.country}
        choices={countries}
        placeholder={t('payment_methods.choose_country')}
        onChange={() => {
          setValue(names.province, '');
        }}
      />
      {provinces ? (
        <SelectField
          key="list"
          name={names.province}
          label={labels.province}
          choices={provinces}
          placeholder={t('payment_methods.choose_province')}
        />
      ) : (
        <TextField key="typed" name={names.province} label={labels.province} autoComplete="address-level1" />
      )}
      <TextField name={names.postal} label={labels.postal} autoComplete="postal-code" />
    </>
  );
}
