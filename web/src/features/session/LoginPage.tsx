import { errorCodes, loginRequest } from '@peeks/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { logIn } from './session-store.ts';

/** Where a guest was sent from by the sign-in guard; only an in-app path is honoured. Else `home`. */
function returnPath(state: unknown, home: string): string {
  const from = typeof state === 'object' && state !== null && 'from' in state ? state.from : null;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : home;
}

/** /login, Account Access (spec §2, §4 Login, §5 Login). Success goes to / (a finance operator's to /operations), or back to the page that asked for a sign-in. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const titleId = useId();
  const spec = useSpecForm(loginRequest, { username: '', password: '' });

  const submit = async (credentials: { username: string; password: string }) => {
    try {
      const user = await logIn(credentials);
      toast(t('toasts.signed_in', { username: user.username }));
      // Finance operators work in the console: they land there (issue 25).
      await navigate(returnPath(location.state, user.role === 'finance' ? '/operations' : '/'), { replace: true });
    } catch (error) {
      // Spec §8: "Login failure: the server message, or the login-failed text."
      if (error instanceof ApiError && error.has(errorCodes.loginFailed))
        throw new ApiError(error.status, [
          { code: errorCodes.loginFailed, message: t('login.failed'), text: t('login.failed') },
        ]);
      throw error;
    }
  };

  return (
    <section className="panel narrow">
      <h1 id={titleId}>{t('login.title')}</h1>
      <Form spec={spec} onSubmit={submit} labelledBy={titleId}>
        <TextField name="username" label={t('login.username')} autoComplete="username" />
        <TextField name="password" label={t('login.password')} type="password" autoComplete="current-password" />
        <SubmitButton>{t('login.submit')}</SubmitButton>
      </Form>
      <p>
        <Link to="/forgot-password">{t('login.forgot')}</Link>
      </p>
      <p>
        {t('login.no_account')}{' '}
        <Link to="/register" className="button">
          {t('login.sign_up')}
        </Link>
      </p>
    </section>
  );
}
