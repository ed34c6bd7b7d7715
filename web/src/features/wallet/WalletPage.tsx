import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { session } from '../session/index.ts';
import { CurrencyTable } from './CurrencyTable.tsx';
import { RecentActivity } from './RecentActivity.tsx';
import './wallet.css';
import { WalletCard } from './WalletCard.tsx';
import { WalletShortcuts } from './WalletShortcuts.tsx';
import { useBalance, wallet } from './wallet-store.ts';

// The coin breakdown, and the dialog primitive with it, load only when opened: the dashboard shows no dialog at first.
const CoinBreakdownDialog = lazy(() =>
  import('./CoinBreakdownDialog.tsx').then((module) => ({ default: module.CoinBreakdownDialog })),
);
// Withdraw Funds loads only when opened.
const WithdrawDialog = lazy(() =>
  import('./WithdrawDialog.tsx').then((module) => ({ default: module.WithdrawDialog })),
);
// Send Funds loads only when opened.
const SendFundsDialog = lazy(() =>
  import('../transfer/index.ts').then((module) => ({ default: module.SendFundsDialog })),
);
// The deposit dialogs (and qrcode with them) load only when Add Funds opens them.
const DepositDialogs = lazy(() =>
  import('../deposits/index.ts').then((module) => ({ default: module.DepositDialogs })),
);

/**
 * The wallet (spec §4 Wallet dashboard), at / with the user's card and at
 * /wallet without it. The figures come from the balance read, which the live
 * feed keeps current, so a transfer received shows without a reload.
 */
export default function WalletPage({ withCard = false }: { withCard?: boolean }) {
  const { t } = useTranslation();
  const balanceRead = useBalance();
  const balance = balanceRead.data;
  const { live } = useSnapshot(wallet);
  const { user } = useSnapshot(session);
  const [breakdown, setBreakdown] = useState(false);
  const [sending, setSending] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const [params] = useSearchParams();
  const depositDialogs = withCard && params.has('deposit') && (
    <Suspense fallback={null}>
      <DepositDialogs />
    </Suspense>
  );

  // Once read, the figures stay (the live feed and later reads replace them); before that, the read's own states.
  if (!balance)
    return (
      <QueryView
        query={balanceRead}
        loading={<PageLoader />}
        failed={(_texts, retry) => (
          <section className="panel" aria-labelledby="wallet-title">
            <h1 id="wallet-title">{t('wallet.title')}</h1>
            <p role="alert">{t('wallet.failed')}</p>
            <button type="button" className="button" onClick={retry}>
              {t('wallet.retry')}
            </button>
          </section>
        )}
      >
        {() => null}
      </QueryView>
    );

  return (
    <section className="panel wallet" aria-labelledby="wallet-title">
      <header className="wallet-header">
        <h1 id="wallet-title">{withCard ? t('wallet.dashboard_title') : t('wallet.title')}</h1>
        {/* As wide in either state (the other word sits hidden under it): the badge does not move on connecting. */}
        <span
          className={live ? 'live-badge on' : 'live-badge'}
          data-other={live ? t('wallet.live_off') : t('wallet.live_on')}
        >
          <span>{live ? t('wallet.live_on') : t('wallet.live_off')}</span>
        </span>
      </header>
      <WalletCard
        user={withCard ? user : null}
        balance={balance}
        addMoneyTo={withCard ? '/?deposit=choose' : '/add-fund'}
        onSend={() => {
          setSending(true);
        }}
        onWithdraw={() => {
          setWithdrawing(true);
        }}
      />
      <div className="wallet-below">
        {withCard && <RecentActivity />}
        <WalletShortcuts />
      </div>
      <CurrencyTable
        balances={balance.balances}
        onCoinBreakdown={() => {
          setBreakdown(true);
        }}
      />
      {breakdown && (
        <Suspense fallback={null}>
          <CoinBreakdownDialog
            coinBalance={balance.balance}
            onClose={() => {
              setBreakdown(false);
            }}
          />
        </Suspense>
      )}
      {depositDialogs}
      {withdrawing && (
        <Suspense fallback={null}>
          <WithdrawDialog
            onClose={() => {
              setWithdrawing(false);
            }}
          />
        </Suspense>
      )}
      {sending && (
        <Suspense fallback={null}>
          <SendFundsDialog
            onClose={() => {
              setSending(false);
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
