import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { Footer } from '../features/shell/Footer.tsx';
import { TopBar } from '../features/shell/TopBar.tsx';
import { loadSession } from '../features/session/session-store.ts';
import { Toasts } from '../ui/toasts.tsx';

/** What every page has: the top bar, the screen, the footer, and the toasts. The session is asked for once. */
export function Root() {
  const { t } = useTranslation();
  useEffect(() => {
    void loadSession();
  }, []);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        {t('app.skip_to_content')}
      </a>
      <TopBar />
      <Outlet />
      <Footer />
      <Toasts />
    </div>
  );
}
