import { useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../ui/form.tsx';
import { countryChoices } from '../../ui/geo.ts';
import { provinceChoices } from '../../ui/provinces.ts';

/** A blank address for a modal's defaults. */
export const emptyAddress = { name_first: '', name_last: '', address1: '', address2: '', city: '', province: '', postal_code: '', country: '' };

/**
 * A payment method's address (spec §3 billing_address): names, street,
 * city, then country, province and postal code. Province and state come
 * from the country's list where it has one (US, CA) and are typed
 * otherwise; changing the country clears the province.
 */
export function AddressFields({ prefix }: { prefix: string }) {
  const { t, i18n } = useTranslation();
  const { watch, setValue } = useFormContext();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  const country: unknown = watch(`${prefix}country`);
  const provinces = provinceChoices(typeof country === 'string' ? country : '');
  const name = (field: string) => `${prefix}${field}`;
  return (
    <>
      <TextField name={name('name_first')} label={t('payment_methods.first_name')} autoComplete="given-name" />
      <TextField name={name('name_last')} label={t('payment_methods.last_name')} autoComplete="family-name" />
      <TextField name={name('address1')} label={t('payment_methods.address1')} autoComplete="address-line1" />
      <TextField name={name('address2')} label={t('payment_methods.address2')} autoComplete="address-line2" />
      <TextField name={name('city')} label={t('payment_methods.city')} autoComplete="address-level2" />
      <SelectField
        name={name('country')}
        label={t('payment_methods.country')}
        choices={countries}
        placeholder={t('payment_methods.choose_country')}
        onChange={() => {
          setValue(name('province'), '');
        }}
      />
      {provinces ? (
        <SelectField key="list" name={name('province')} label={t('payment_methods.province')} choices={provinces} placeholder={t('payment_methods.choose_province')} />
      ) : (
        <TextField key="typed" name={name('province')} label={t('payment_methods.province')} autoComplete="address-level1" />
      )}
      <TextField name={name('postal_code')} label={t('payment_methods.postal_code')} autoComplete="postal-code" />
    </>
  );
}
