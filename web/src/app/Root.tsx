import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Footer } from '../features/shell/Footer.tsx';
import { TopBar } from '../features/shell/TopBar.tsx';
import { openSession, session } from '../features/session/session-store.ts';
import { queryClient } from '../lib/query.ts';
import { PageLoader } from '../ui/PageLoader.tsx';
import { Toasts } from '../ui/toasts.tsx';

/**
 * What every page has: the top bar, the screen, the footer, and the toasts.
 * The session is asked for once, and no screen renders before it answers:
 * the answer carries the CSRF token, so no screen's call leaves without it
 * (a cached user alone would let them go first and be refused with a 403).
 * The answer the page came with counts (main.tsx): it is not asked again.
 */
export function Root() {
  const { t } = useTranslation();
  const { status } = useSnapshot(session);
  useEffect(() => {
    void openSession();
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <div className="app">
        <a href="#main" className="skip-link">
          {t('app.skip_to_content')}
        </a>
        <TopBar />
        {status === 'known' ? <Outlet /> : <PageLoader />}
        <Footer />
        <Toasts />
      </div>
    </QueryClientProvider>
  );
}
