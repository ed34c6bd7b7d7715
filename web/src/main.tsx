import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, preloadRoute } from './app/routes.tsx';
import { dictionaries } from './app/texts.ts';
import './app/styles.css';
import { rememberedLanguage } from './features/language/index.ts';
import { addTexts, startI18n } from './i18n/i18n.ts';
import { hideStartupLoader } from './ui/PageLoader.tsx';

// Spec §8: without a page mount element, startup throws a missing-mount-point error.
const mount = document.getElementById('root');
if (!mount) throw new Error('missing mount point: no element with id "root"');

startI18n(rememberedLanguage() ?? undefined);
// The first load's texts; a later chunk adds its own.
for (const texts of dictionaries) addTexts(texts);
// This page's chunks load beside the session request instead of after it.
preloadRoute(window.location.pathname);
hideStartupLoader(document.getElementById('startup-loader'));
// A transition, so React renders the first screen in slices that let the browser answer input between them.
startTransition(() => {
  createRoot(mount).render(
    <StrictMode>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </StrictMode>,
  );
});
