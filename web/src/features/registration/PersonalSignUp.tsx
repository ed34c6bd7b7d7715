import { personalRegistration, type PersonalRegistration } from '@peeks/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { CheckboxField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { registerPersonal } from './registration-api.ts';
import { TermsLabel, UserDetailsFields } from './UserDetailsFields.tsx';

/** /register/personal, "Sign up for an account" (spec §2, §5 Registration). Success goes to /. */
export default function PersonalSignUp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const spec = useSpecForm(personalRegistration, {
    username: '',
    email: '',
    password: '',
    confirm_password: '',
    birthday: '',
    country: '',
  });

  const submit = async (form: PersonalRegistration) => {
    await registerPersonal(form);
    toast(t('toasts.signed_up'));
    await navigate('/', { replace: true });
  };

  return (
    <section className="panel narrow">
      <h1 id={titleId}>{t('signup.personal_title')}</h1>
      <Form spec={spec} onSubmit={submit} labelledBy={titleId}>
        <UserDetailsFields />
        <CheckboxField name="termsAccepted" label={<TermsLabel />} />
        <SubmitButton>{t('signup.submit')}</SubmitButton>
      </Form>
      <p>
        {t('signup.have_account')} <Link to="/login">{t('signup.log_in')}</Link>
      </p>
    </section>
  );
}
