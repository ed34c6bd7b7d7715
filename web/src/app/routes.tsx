import {
  createElement,
  isValidElement,
  lazy,
  Suspense,
  useLayoutEffect,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import { matchRoutes, Navigate, Outlet, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { offerDrawer } from '../features/shell/drawer.ts';
import { PublicLayout } from '../features/shell/PublicLayout.tsx';
import { session } from '../features/session/session-store.ts';
import { PageLoader } from '../ui/PageLoader.tsx';
import { Root } from './Root.tsx';

/** A lazy component whose chunk can also be asked for ahead of its first render, and is fetched once. */
interface Chunk {
  preload: () => Promise<unknown>;
}

/**
 * A screen in a chunk of its own. Once its chunk is in (fetched ahead by
 * `preloadRoute`), it renders straight away: React.lazy would suspend on
 * its first render even then, and React holds a revealed fallback for
 * 300 ms, which the dashboard spent waiting before it asked for the balance.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- screens take their own props
function chunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  let loaded: T | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const once = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(once);
  function Screen(props: ComponentProps<T>) {
    return createElement(loaded ?? Lazy, props);
  }
  return Object.assign(Screen, { preload: once });
}

/** What a route's screen needs, fetched ahead by `preloadRoute` (its `handle`). */
const ahead = (...chunks: Chunk[]) => ({ preload: () => Promise.all(chunks.map((each) => each.preload())) });

/**
 * Fetches the chunks the page at `pathname` renders (layout and screen) at
 * once, beside the session request, rather than one after another once
 * the session has answered and the layout has rendered.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  return Promise.allSettled(
    (matchRoutes(routes, pathname) ?? []).map(
      ({ route }) => (route.handle as ReturnType<typeof ahead> | undefined)?.preload() ?? Promise.resolve(),
    ),
  );
}

/**
 * Offers the drawer before the first render when `pathname` opens a
 * signed-in route for someone signed in: RequireSignIn offers it in a layout
 * effect, which in the first render (a transition) came a frame late, and
 * the logo, painted once without the menu button, moved.
 */
export function offerDrawerAhead(pathname: string): void {
  const signedInRoute = (matchRoutes(routes, pathname) ?? []).some(
    ({ route }) => isValidElement(route.element) && route.element.type === RequireSignIn,
  );
  if (signedInRoute && session.user) offerDrawer();
}

// Each screen is its own chunk, fetched the first time its route is visited (or ahead, by preloadRoute).
// The signed-in layout too: the sign-in page does not carry the dashboard's navigation and wallet feed.
const DashboardLayout = chunk(() =>
  import('../features/shell/DashboardLayout.tsx').then((module) => ({ default: module.DashboardLayout })),
);
const LoginPage = chunk(() => import('../features/session/LoginPage.tsx'));
const LogoutPage = chunk(() => import('../features/session/LogoutPage.tsx'));
const RegisterLanding = chunk(() => import('../features/registration/RegisterLanding.tsx'));
const PersonalSignUp = chunk(() => import('../features/registration/PersonalSignUp.tsx'));
const BusinessSignUp = chunk(() => import('../features/registration/BusinessSignUp.tsx'));
const ForgotPassword = chunk(() => import('../features/recovery/ForgotPassword.tsx'));
const WalletPage = chunk(() => import('../features/wallet/WalletPage.tsx'));
const NotFound = chunk(() => import('../features/shell/NotFound.tsx'));
const ContactsPage = chunk(() => import('../features/contacts/ContactsPage.tsx'));
const TransferFund = chunk(() => import('../features/transfer/TransferFund.tsx'));
const PaymentMethodList = chunk(() => import('../features/payment-methods/PaymentMethodList.tsx'));
const AddFund = chunk(() => import('../features/payment-methods/AddFund.tsx'));
const ProfilePage = chunk(() => import('../features/profile/ProfilePage.tsx'));
const AgreementsPage = chunk(() => import('../features/agreements/AgreementsPage.tsx'));
// Straight from its file: the feature's index also carries the Agreements screen, which the dashboard does not show.
const PendingAgreement = chunk(() =>
  import('../features/agreements/PendingAgreement.tsx').then((module) => ({ default: module.PendingAgreement })),
);
const WebhooksPage = chunk(() => import('../features/webhooks/WebhooksPage.tsx'));
const SettingsPage = chunk(() => import('../features/webhooks/SettingsPage.tsx'));
const LegalPage = chunk(() => import('../features/legal/LegalPage.tsx'));
const MerchantDashboard = chunk(() => import('../features/merchant/MerchantDashboard.tsx'));
const MerchantTransfers = chunk(() => import('../features/merchant/Transfers.tsx'));
const MerchantReturns = chunk(() => import('../features/merchant/Returns.tsx'));
const MerchantSettlements = chunk(() => import('../features/merchant/Settlements.tsx'));
const MerchantReports = chunk(() => import('../features/merchant/Reports.tsx'));
const ScanQrCode = chunk(() => import('../features/qr-codes/ScanQrCode.tsx'));
const GenerateQrCode = chunk(() => import('../features/qr-codes/GenerateQrCode.tsx'));
const TransactionsPage = chunk(() => import('../features/history/TransactionsPage.tsx'));
const AddRecipientPage = chunk(() => import('../features/contacts/AddRecipientPage.tsx'));
const CheckoutPage = chunk(() => import('../features/checkout/CheckoutPage.tsx'));
// The finance operations console: its own chunks, none of them in the wallet's first load.
const OperationsLayout = chunk(() => import('../features/operations/OperationsLayout.tsx'));
const OperationsOverview = chunk(() => import('../features/operations/OverviewPage.tsx'));
const OperationsDeposits = chunk(() => import('../features/operations/DepositsPage.tsx'));
const OperationsWithdrawals = chunk(() => import('../features/operations/WithdrawalsPage.tsx'));
const OperationsCorrections = chunk(() => import('../features/operations/CorrectionsPage.tsx'));
const OperationsCoinTrail = chunk(() => import('../features/operations/CoinTrailPage.tsx'));
const OperationsEventLog = chunk(() => import('../features/operations/EventLogPage.tsx'));
const OperationsPeople = chunk(() => import('../features/operations/PeoplePage.tsx'));
const OperationsLedgerLog = chunk(() => import('../features/operations/LedgerLogPage.tsx'));

const screen = (element: ReactNode) => <Suspense fallback={<PageLoader />}>{element}</Suspense>;

/** Signed-in routes: a guest goes to /login and comes back after signing in. */
function RequireSignIn() {
  const { status, user } = useSnapshot(session);
  const location = useLocation();
  useLayoutEffect(offerDrawer, []);
  if (user) return <Outlet />;
  if (status === 'unknown') return <PageLoader />;
  return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
}

/** Sign-in and sign-up are for guests: someone signed in goes where they were headed, else home. */
function GuestOnly() {
  const { user } = useSnapshot(session);
  const location = useLocation();
  if (!user) return <Outlet />;
  const from = (location.state as { from?: unknown } | null)?.from;
  const inApp = typeof from === 'string' && from.startsWith('/') && !from.startsWith('//');
  return <Navigate to={inApp ? from : '/'} replace />;
}

/** Every route of the spec's route table (§2), each screen its own chunk. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            element: <GuestOnly />,
            children: [
              { path: '/login', element: screen(<LoginPage />), handle: ahead(LoginPage) },
              { path: '/forgot-password', element: screen(<ForgotPassword />), handle: ahead(ForgotPassword) },
              { path: '/register', element: screen(<RegisterLanding />), handle: ahead(RegisterLanding) },
              { path: '/register/personal', element: screen(<PersonalSignUp />), handle: ahead(PersonalSignUp) },
              { path: '/register/business', element: screen(<BusinessSignUp />), handle: ahead(BusinessSignUp) },
            ],
          },
          { path: '/login/logout', element: screen(<LogoutPage />), handle: ahead(LogoutPage) },
          // Open to everyone, signed in or not: sign-up and the footer link here.
          { path: '/terms', element: screen(<LegalPage document="terms" />), handle: ahead(LegalPage) },
          { path: '/privacy', element: screen(<LegalPage document="privacy" />), handle: ahead(LegalPage) },
          // The hosted checkout page takes ?id&token and is open to guests.
          { path: '/checkout', element: screen(<CheckoutPage />), handle: ahead(CheckoutPage) },
          { path: '*', element: screen(<NotFound />), handle: ahead(NotFound) },
        ],
      },
      {
        element: <RequireSignIn />,
        children: [
          {
            element: screen(<DashboardLayout />),
            handle: ahead(DashboardLayout),
            children: [
              {
                path: '/',
                handle: ahead(WalletPage, PendingAgreement),
                element: screen(
                  <>
                    <WalletPage withCard />
                    <PendingAgreement />
                  </>,
                ),
              },
              { path: '/wallet', element: screen(<WalletPage />), handle: ahead(WalletPage) },
              { path: '/add-fund', element: screen(<AddFund />), handle: ahead(AddFund) },
              { path: '/profile', element: screen(<ProfilePage />), handle: ahead(ProfilePage) },
              { path: '/profile/personal', element: screen(<ProfilePage />), handle: ahead(ProfilePage) },
              { path: '/agreement', element: screen(<AgreementsPage />), handle: ahead(AgreementsPage) },
              { path: '/webhook', element: screen(<WebhooksPage />), handle: ahead(WebhooksPage) },
              { path: '/contacts', element: screen(<ContactsPage />), handle: ahead(ContactsPage) },
              // Spec §2's Add A Recipient variant of the contact form, with banking details.
              { path: '/add-recipient', element: screen(<AddRecipientPage />), handle: ahead(AddRecipientPage) },
              { path: '/scan-qr-code', element: screen(<ScanQrCode />), handle: ahead(ScanQrCode) },
              // The spec lists it as commented out, not active; built, as how a shop takes a payment at the counter.
              { path: '/generate-qr-code', element: screen(<GenerateQrCode />), handle: ahead(GenerateQrCode) },
              { path: '/transaction', element: screen(<TransactionsPage />), handle: ahead(TransactionsPage) },
              {
                path: '/payment-method-list',
                element: screen(<PaymentMethodList />),
                handle: ahead(PaymentMethodList),
              },
              { path: '/setting', element: screen(<SettingsPage />), handle: ahead(SettingsPage) },
              { path: '/transfer-fund', element: screen(<TransferFund />), handle: ahead(TransferFund) },
              // The sidebar's merchant entries (issue 27).
              { path: '/merchant/dashboard', element: screen(<MerchantDashboard />), handle: ahead(MerchantDashboard) },
              { path: '/merchant/transfers', element: screen(<MerchantTransfers />), handle: ahead(MerchantTransfers) },
              { path: '/merchant/returns', element: screen(<MerchantReturns />), handle: ahead(MerchantReturns) },
              {
                path: '/merchant/settlements',
                element: screen(<MerchantSettlements />),
                handle: ahead(MerchantSettlements),
              },
              { path: '/merchant/reports', element: screen(<MerchantReports />), handle: ahead(MerchantReports) },
              {
                path: '/operations',
                element: screen(<OperationsLayout />),
                handle: ahead(OperationsLayout),
                children: [
                  { index: true, element: screen(<OperationsOverview />), handle: ahead(OperationsOverview) },
                  { path: 'deposits', element: screen(<OperationsDeposits />), handle: ahead(OperationsDeposits) },
                  {
                    path: 'withdrawals',
                    element: screen(<OperationsWithdrawals />),
                    handle: ahead(OperationsWithdrawals),
                  },
                  {
                    path: 'corrections',
                    element: screen(<OperationsCorrections />),
                    handle: ahead(OperationsCorrections),
                  },
                  { path: 'coins', element: screen(<OperationsCoinTrail />), handle: ahead(OperationsCoinTrail) },
                  { path: 'events', element: screen(<OperationsEventLog />), handle: ahead(OperationsEventLog) },
                  { path: 'ledger-log', element: screen(<OperationsLedgerLog />), handle: ahead(OperationsLedgerLog) },
                  { path: 'people', element: screen(<OperationsPeople />), handle: ahead(OperationsPeople) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * The routes under the declarative router (`BrowserRouter` in main.tsx), not
 * the data router: the app uses no loaders or actions, and the data router
 * added 16 KB gzipped to every first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
