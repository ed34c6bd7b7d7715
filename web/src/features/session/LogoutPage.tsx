import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { logOut } from './session-store.ts';

/** /login/logout: signs out (local storage cleared even if the call fails), then shows the sign-in screen. */
export default function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // React's development double effect must not sign out twice.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logOut()
      .catch(() => undefined)
      .then(() => {
        toast(t('toasts.signed_out'));
        return navigate('/login', { replace: true });
      });
  }, [navigate, t]);
  return <PageLoader />;
}
