import { businessRegistration, businessTypes, type BusinessRegistration } from '@peeks/contracts';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { CheckboxField, DateField, PhoneField, SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryChoices, DEFAULT_DIALLING_CODE } from '../../ui/geo.ts';
import { toast } from '../../ui/toasts.tsx';
import { registerBusiness, useCategories } from './registration-api.ts';
import { TermsLabel, UserDetailsFields } from './UserDetailsFields.tsx';

/** A select's text as the number the API takes; empty stays missing so the rule says 'Please select …'. */
const asId = (value: string) => (value === '' ? undefined : Number(value));

/** Monthly sales are typed in dollars and sent in cents, like every amount on the wire; anything else is left for the rule to refuse. */
export const dollarsToCents = (value: string) => {
  const typed = value.trim();
  if (typed === '') return undefined;
  return /^\d+(\.\d{1,2})?$/.test(typed) ? Math.round(Number(typed) * 100) : Number.NaN;
};

/** /register/business, "Sign up for an Business account" with its five sections (spec §2, §5). Success goes to /. */
export default function BusinessSignUp() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  const spec = useSpecForm(businessRegistration, {
    phone_region: DEFAULT_DIALLING_CODE,
    support_phone_region: DEFAULT_DIALLING_CODE,
    contact_phone_region: DEFAULT_DIALLING_CODE,
    owner_phone_region: DEFAULT_DIALLING_CODE,
  });
  const { categories, subCategories } = useCategories(spec.form.watch('category_id'));

  const submit = async (form: BusinessRegistration) => {
    await registerBusiness(form);
    toast(t('toasts.signed_up'));
    await navigate('/', { replace: true });
  };

  // Spec §2: changing the category resets the sub category (and the hook reloads the list).
  const categoryChanged = () => {
    spec.form.setValue('sub_category_id', undefined as never);
  };

  const section = (key: 'user_details' | 'merchant_details' | 'address' | 'support' | 'owner') => (
    <legend>{t(`signup.${key}`)}</legend>
  );

  return (
    <section className="panel wide">
      <h1 id={titleId}>{t('signup.business_title')}</h1>
      <Form spec={spec} onSubmit={submit} labelledBy={titleId}>
        <fieldset>
          {section('user_details')}
          <UserDetailsFields />
        </fieldset>
        <fieldset>
          {section('merchant_details')}
          <TextField name="name" label={t('signup.name')} autoComplete="organization" />
          <TextField name="dba" label={t('signup.dba')} />
          <TextField name="website" label={t('signup.website')} type="url" autoComplete="url" />
          <SelectField
            name="category_id"
            label={t('signup.category')}
            placeholder={t('signup.choose_category')}
            choices={categories.map((each) => ({ value: String(each.id), label: each.name }))}
            setValueAs={asId}
            onChange={categoryChanged}
          />
          <SelectField
            name="sub_category_id"
            label={t('signup.sub_category')}
            placeholder={t('signup.choose_sub_category')}
            choices={subCategories.map((each) => ({ value: String(each.id), label: each.name }))}
            setValueAs={asId}
          />
          <SelectField
            name="business_type"
            label={t('signup.business_type')}
            placeholder={t('signup.choose_business_type')}
            choices={businessTypes.map((type) => ({ value: type, label: t(`signup.business_types.${type}`) }))}
          />
          <DateField name="date_established" label={t('signup.date_established')} />
          <TextField
            name="monthly_sales"
            label={t('signup.monthly_sales')}
            inputMode="decimal"
            setValueAs={dollarsToCents}
          />
          <TextField name="business_number" label={t('signup.business_number')} inputMode="numeric" />
          <SelectField
            name="business_country"
            label={t('signup.business_country')}
            choices={countries}
            placeholder={t('signup.choose_country')}
          />
          <PhoneField name="phone" regionName="phone_region" label={t('signup.phone')} />
        </fieldset>
        <fieldset>
          {section('address')}
          <TextField name="address.email" label={t('signup.email')} type="email" />
          <PhoneField name="address.phone" label={t('signup.phone')} />
          <TextField name="address.name_first" label={t('signup.first_name')} autoComplete="given-name" />
          <TextField name="address.name_last" label={t('signup.last_name')} autoComplete="family-name" />
          <TextField name="address.address1" label={t('signup.address1')} autoComplete="address-line1" />
          <TextField name="address.address2" label={t('signup.address2')} autoComplete="address-line2" />
          <TextField name="address.city" label={t('signup.city')} autoComplete="address-level2" />
          <TextField name="address.province_state" label={t('signup.province_state')} autoComplete="address-level1" />
          <SelectField
            name="address.country"
            label={t('signup.country')}
            choices={countries}
            placeholder={t('signup.choose_country')}
          />
          <TextField name="address.postal_code" label={t('signup.postal_code')} autoComplete="postal-code" />
        </fieldset>
        <fieldset>
          {section('support')}
          <TextField name="support_url" label={t('signup.support_url')} type="url" />
          <PhoneField name="support_phone" regionName="support_phone_region" label={t('signup.support_phone')} />
          <TextField name="support_email" label={t('signup.support_email')} type="email" />
          <TextField name="contact_name" label={t('signup.contact_name')} />
          <TextField name="contact_email" label={t('signup.contact_email')} type="email" />
          <PhoneField name="contact_phone" regionName="contact_phone_region" label={t('signup.contact_phone')} />
        </fieldset>
        <fieldset>
          {section('owner')}
          <TextField name="owner_citizenship" label={t('signup.owner_citizenship')} />
          <DateField name="owner_dob" label={t('signup.owner_dob')} />
          <TextField name="owner_name" label={t('signup.owner_name')} />
          <PhoneField name="owner_phone" regionName="owner_phone_region" label={t('signup.owner_phone')} />
          <TextField name="owner_email" label={t('signup.owner_email')} type="email" />
        </fieldset>
        <CheckboxField name="termsAccepted" label={<TermsLabel />} />
        <SubmitButton>{t('signup.business_submit')}</SubmitButton>
      </Form>
      <p>
        <Link to="/login">{t('signup.sign_in')}</Link>
      </p>
    </section>
  );
}
