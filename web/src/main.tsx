import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, offerDrawerAhead, preloadRoute } from './app/routes.tsx';
import { dictionaries } from './app/texts.ts';
import './app/styles.css';
import { rememberedLanguage } from './features/language/index.ts';
import { acceptFirstSession } from './features/session/index.ts';
import { addTexts, startI18n } from './i18n/i18n.ts';
import { takeFirstAnswers } from './lib/first-answers.ts';
import { hideStartupLoader } from './ui/PageLoader.tsx';

// Spec §8: without a page mount element, startup throws a missing-mount-point error.
const mount = document.getElementById('root');
if (!mount) throw new Error('missing mount point: no element with id "root"');

startI18n(rememberedLanguage() ?? undefined);
// The first load's texts; a later chunk adds its own.
for (const texts of dictionaries) addTexts(texts);
// This page's chunks load beside the session request instead of after it.
const chunksIn = preloadRoute(window.location.pathname);
// The session and balance the server put in the page: the first screen renders with them, asking nothing.
// The wallet's code is the dashboard's chunk (fetched above), not the shell's: the balance waits for it.
const first = takeFirstAnswers(document.getElementById('first-answers'));
const sessionIn = acceptFirstSession(
  first.session,
  first.balance === undefined
    ? undefined
    : import('./features/wallet/index.ts').then((wallet) => () => {
        wallet.primeBalance(first.balance);
      }),
);
hideStartupLoader(document.getElementById('startup-loader'));
// The first render waits for the page's chunks and the session it came with, so it renders the whole screen
// once, in a transition: React renders it in slices that let the browser answer input between them. Rendering
// a loader first, the screen came as a synchronous update (the session's store), one long task.
void Promise.allSettled([chunksIn, sessionIn]).then(() => {
  offerDrawerAhead(window.location.pathname);
  startTransition(() => {
    createRoot(mount).render(
      <StrictMode>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </StrictMode>,
    );
  });
});
