import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField, NewPasswordField, SelectField, TextField } from '../../ui/fields.tsx';
import { countryChoices } from '../../ui/geo.ts';

/** The User Details both sign-ups share: username, e-mail, password, confirm, birth date, country. */
export function UserDetailsFields() {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  return (
    <>
      <TextField name="username" label={t('signup.username')} autoComplete="username" />
      <TextField name="email" label={t('signup.email')} type="email" autoComplete="email" />
      <NewPasswordField name="password" label={t('signup.password')} />
      <TextField
        name="confirm_password"
        label={t('signup.confirm_password')}
        type="password"
        autoComplete="new-password"
      />
      <DateField name="birthday" label={t('signup.birthday')} />
      <SelectField
        name="country"
        label={t('signup.country')}
        choices={countries}
        placeholder={t('signup.choose_country')}
      />
    </>
  );
}

/** The terms checkbox, sent as termsAccepted 1 or 0; the terms open in a new tab so the form keeps what was typed. */
export function TermsLabel() {
  const { t } = useTranslation();
  return (
    <>
      {t('signup.terms_before')}
      <a href="/terms" target="_blank" rel="noopener">
        {t('signup.terms_link')}
      </a>
    </>
  );
}
