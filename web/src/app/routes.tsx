import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type RouteObject } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { DashboardLayout } from '../features/shell/DashboardLayout.tsx';
import { PublicLayout } from '../features/shell/PublicLayout.tsx';
import { session } from '../features/session/session-store.ts';
import { PageLoader } from '../ui/PageLoader.tsx';
import { Root } from './Root.tsx';

// Each screen is its own chunk, fetched the first time its route is visited.
const LoginPage = lazy(() => import('../features/session/LoginPage.tsx'));
const LogoutPage = lazy(() => import('../features/session/LogoutPage.tsx'));
const RegisterLanding = lazy(() => import('../features/registration/RegisterLanding.tsx'));
const PersonalSignUp = lazy(() => import('../features/registration/PersonalSignUp.tsx'));
const BusinessSignUp = lazy(() => import('../features/registration/BusinessSignUp.tsx'));
const ForgotPassword = lazy(() => import('../features/recovery/ForgotPassword.tsx'));
const WalletPage = lazy(() => import('../features/wallet/WalletPage.tsx'));
const NotFound = lazy(() => import('../features/shell/NotFound.tsx'));
const ContactsPage = lazy(() => import('../features/contacts/ContactsPage.tsx'));
const TransferFund = lazy(() => import('../features/transfer/TransferFund.tsx'));
const PaymentMethodList = lazy(() => import('../features/payment-methods/PaymentMethodList.tsx'));
const AddFund = lazy(() => import('../features/payment-methods/AddFund.tsx'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage.tsx'));
const AgreementsPage = lazy(() => import('../features/agreements/AgreementsPage.tsx'));
const PendingAgreement = lazy(() =>
  import('../features/agreements/index.ts').then((module) => ({ default: module.PendingAgreement })),
);
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage.tsx'));
const SettingsPage = lazy(() => import('../features/webhooks/SettingsPage.tsx'));
const LegalPage = lazy(() => import('../features/legal/LegalPage.tsx'));
const MerchantDashboard = lazy(() => import('../features/merchant/MerchantDashboard.tsx'));
const MerchantTransfers = lazy(() => import('../features/merchant/Transfers.tsx'));
const MerchantReturns = lazy(() => import('../features/merchant/Returns.tsx'));
const MerchantSettlements = lazy(() => import('../features/merchant/Settlements.tsx'));
const MerchantReports = lazy(() => import('../features/merchant/Reports.tsx'));
const ScanQrCode = lazy(() => import('../features/qr-codes/ScanQrCode.tsx'));
const GenerateQrCode = lazy(() => import('../features/qr-codes/GenerateQrCode.tsx'));
const TransactionsPage = lazy(() => import('../features/history/TransactionsPage.tsx'));
const AddRecipientPage = lazy(() => import('../features/contacts/AddRecipientPage.tsx'));
const CheckoutPage = lazy(() => import('../features/checkout/CheckoutPage.tsx'));
// The finance operations console: its own chunks, none of them in the wallet's first load.
const OperationsLayout = lazy(() => import('../features/operations/OperationsLayout.tsx'));
const OperationsOverview = lazy(() => import('../features/operations/OverviewPage.tsx'));
const OperationsDeposits = lazy(() => import('../features/operations/DepositsPage.tsx'));
const OperationsWithdrawals = lazy(() => import('../features/operations/WithdrawalsPage.tsx'));
const OperationsCorrections = lazy(() => import('../features/operations/CorrectionsPage.tsx'));
const OperationsCoinTrail = lazy(() => import('../features/operations/CoinTrailPage.tsx'));
const OperationsEventLog = lazy(() => import('../features/operations/EventLogPage.tsx'));
const OperationsPeople = lazy(() => import('../features/operations/PeoplePage.tsx'));
const OperationsLedgerLog = lazy(() => import('../features/operations/LedgerLogPage.tsx'));

const screen = (element: ReactNode) => <Suspense fallback={<PageLoader />}>{element}</Suspense>;

/** Signed-in routes: a guest goes to /login and comes back after signing in. */
function RequireSignIn() {
  const { status, user } = useSnapshot(session);
  const location = useLocation();
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
              { path: '/login', element: screen(<LoginPage />) },
              { path: '/forgot-password', element: screen(<ForgotPassword />) },
              { path: '/register', element: screen(<RegisterLanding />) },
              { path: '/register/personal', element: screen(<PersonalSignUp />) },
              { path: '/register/business', element: screen(<BusinessSignUp />) },
            ],
          },
          { path: '/login/logout', element: screen(<LogoutPage />) },
          // Open to everyone, signed in or not: sign-up and the footer link here.
          { path: '/terms', element: screen(<LegalPage document="terms" />) },
          { path: '/privacy', element: screen(<LegalPage document="privacy" />) },
          // The hosted checkout page takes ?id&token and is open to guests.
          { path: '/checkout', element: screen(<CheckoutPage />) },
          { path: '*', element: screen(<NotFound />) },
        ],
      },
      {
        element: <RequireSignIn />,
        children: [
          {
            element: <DashboardLayout />,
            children: [
              {
                path: '/',
                element: screen(
                  <>
                    <WalletPage withCard />
                    <PendingAgreement />
                  </>,
                ),
              },
              { path: '/wallet', element: screen(<WalletPage />) },
              { path: '/add-fund', element: screen(<AddFund />) },
              { path: '/profile', element: screen(<ProfilePage />) },
              { path: '/profile/personal', element: screen(<ProfilePage />) },
              { path: '/agreement', element: screen(<AgreementsPage />) },
              { path: '/webhook', element: screen(<WebhooksPage />) },
              { path: '/contacts', element: screen(<ContactsPage />) },
              // Spec §2's Add A Recipient variant of the contact form, with banking details.
              { path: '/add-recipient', element: screen(<AddRecipientPage />) },
              { path: '/scan-qr-code', element: screen(<ScanQrCode />) },
              // The spec lists it as commented out, not active; built, as how a shop takes a payment at the counter.
              { path: '/generate-qr-code', element: screen(<GenerateQrCode />) },
              { path: '/transaction', element: screen(<TransactionsPage />) },
              { path: '/payment-method-list', element: screen(<PaymentMethodList />) },
              { path: '/setting', element: screen(<SettingsPage />) },
              { path: '/transfer-fund', element: screen(<TransferFund />) },
              // The sidebar's merchant entries (issue 27).
              { path: '/merchant/dashboard', element: screen(<MerchantDashboard />) },
              { path: '/merchant/transfers', element: screen(<MerchantTransfers />) },
              { path: '/merchant/returns', element: screen(<MerchantReturns />) },
              { path: '/merchant/settlements', element: screen(<MerchantSettlements />) },
              { path: '/merchant/reports', element: screen(<MerchantReports />) },
              {
                path: '/operations',
                element: screen(<OperationsLayout />),
                children: [
                  { index: true, element: screen(<OperationsOverview />) },
                  { path: 'deposits', element: screen(<OperationsDeposits />) },
                  { path: 'withdrawals', element: screen(<OperationsWithdrawals />) },
                  { path: 'corrections', element: screen(<OperationsCorrections />) },
                  { path: 'coins', element: screen(<OperationsCoinTrail />) },
                  { path: 'events', element: screen(<OperationsEventLog />) },
                  { path: 'ledger-log', element: screen(<OperationsLedgerLog />) },
                  { path: 'people', element: screen(<OperationsPeople />) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
