import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { isMerchant, session } from '../session/index.ts';
import { connectLive, forgetWallet, loadBalance } from '../wallet/index.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { closeDrawer, drawer } from './drawer.ts';

// The merchant switch, and the dialog primitive with it (about 14 KB gzipped), load only when opened.
const SwitchMerchantDialog = lazy(() =>
  import('./SwitchMerchantDialog.tsx').then((module) => ({ default: module.SwitchMerchantDialog })),
);

/**
 * The merchant entries are placeholders in the spec (§2); issue 27 gives them
 * screens, open to a member of the current merchant holding VIEW_SALES. Only
 * someone acting for a merchant sees them (issue 36): a person without a
 * merchant role has no use for five greyed entries. A merchant member without
 * VIEW_SALES sees them marked as not available.
 */
const MERCHANT_ENTRIES = [
  { key: 'merchant_dashboard', path: '/merchant/dashboard' },
  { key: 'transfers', path: '/merchant/transfers' },
  { key: 'returns', path: '/merchant/returns' },
  { key: 'settlements', path: '/merchant/settlements' },
  { key: 'reports', path: '/merchant/reports' },
] as const;

/** The signed-in layout: profile menu, dashboard navigation and sidebar placeholders beside the screen. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const { user, merchant } = useSnapshot(session);
  const [switching, setSwitching] = useState(false);
  const { open } = useSnapshot(drawer);
  const sidebar = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const userId = user?.user_id;
  const merchantId = user?.merchant_id;

  // The wallet is read and kept live while a signed-in screen is open, afresh for whoever is signed in or acted for.
  useEffect(() => {
    if (userId === undefined) return;
    void loadBalance();
    const stopLive = connectLive();
    return () => {
      stopLive();
      forgetWallet();
    };
  }, [userId, merchantId]);

  // Following a link closes the drawer.
  useEffect(() => {
    closeDrawer();
  }, [pathname]);
  // An open drawer takes the focus and gives it back to the menu button on Escape.
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    sidebar.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeDrawer();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [open]);

  if (!user) return null;
  const canSeeSales = isMerchant(user) && (merchant?.perms.includes('VIEW_SALES') ?? false);
  const merchantName =
    user.merchant_id === null ? null : (merchant?.name ?? user.merchants[String(user.merchant_id)] ?? null);

  return (
    <div className={open ? 'dashboard drawer-open' : 'dashboard'}>
      {open && (
        <button type="button" className="drawer-backdrop" aria-label={t('nav.close_menu')} onClick={closeDrawer} />
      )}
      <aside className="sidebar" id="dashboard-navigation" ref={sidebar} tabIndex={-1}>
        <section className="profile-menu" aria-label={t('nav.profile')}>
          <Avatar user={user} size={56} />
          <strong>{user.username}</strong>
          {user.fullname && <span>{user.fullname}</span>}
          <span className="profile-email" title={user.email}>
            {user.email}
          </span>
          {merchantName && <span className="merchant-name">{merchantName}</span>}
          {isMerchant(user) && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setSwitching(true);
              }}
            >
              {t('nav.switch_merchant')}
            </button>
          )}
        </section>
        <nav aria-label={t('nav.main')}>
          <ul>
            <li>
              <NavLink to="/" end>
                {t('nav.dashboard')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/transaction">{t('nav.transactions')}</NavLink>
            </li>
            <li>
              <NavLink to="/contacts">{t('nav.contacts')}</NavLink>
            </li>
            <li>
              <NavLink to="/payment-method-list">{t('nav.payment_methods')}</NavLink>
            </li>
            <li>
              <NavLink to="/add-fund">{t('nav.fund_wallet')}</NavLink>
            </li>
            <li>
              <NavLink to="/profile">{t('nav.edit_profile')}</NavLink>
            </li>
            <li>
              <NavLink to="/setting">{t('nav.settings')}</NavLink>
            </li>
            <li>
              <span className="placeholder" aria-disabled="true" title={t('nav.not_available')}>
                {t('nav.support')}
              </span>
            </li>
          </ul>
        </nav>
        {isMerchant(user) && (
          <nav aria-label={t('nav.merchant_menu')} className="sidebar-placeholders">
            <ul>
              {MERCHANT_ENTRIES.map(({ key, path }) => (
                <li key={key}>
                  {canSeeSales ? (
                    <NavLink to={path}>{t(`nav.${key}`)}</NavLink>
                  ) : (
                    <span className="placeholder" aria-disabled="true" title={t('nav.not_available')}>
                      {t(`nav.${key}`)}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        )}
      </aside>
      <main className="dashboard-main" id="main">
        <Outlet />
      </main>
      {switching && (
        <Suspense fallback={null}>
          <SwitchMerchantDialog
            onClose={() => {
              setSwitching(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
