import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { session } from '../session/index.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { drawer, toggleDrawer } from './drawer.ts';

/**
 * Logo; Log In and Sign Up for a guest; MY ACCOUNT, ADD FUNDS and the avatar
 * menu once signed in (spec §2). On a phone the bar is one row: a menu button
 * opens the dashboard navigation as a drawer, which also holds the two links.
 */
export function TopBar() {
  const { t } = useTranslation();
  const { status, user } = useSnapshot(session);
  const { available, open } = useSnapshot(drawer);
  // A user remembered from the last visit keeps the button's place until the session answers, so nothing shifts.
  return (
    <header className="top-bar">
      {user && (available || status === 'unknown') && (
        <button
          type="button"
          className="button ghost menu-button"
          aria-expanded={open}
          aria-controls="dashboard-navigation"
          onClick={toggleDrawer}
        >
          <span aria-hidden="true">☰</span> {t('nav.menu')}
        </button>
      )}
      <Link to="/" className="logo">
        {t('app.name')}
      </Link>
      {/* A guest has no account to go to; on a phone the drawer holds both (Edit profile, Fund wallet). */}
      {user && (
        <nav aria-label={t('nav.my_account')} className="top-links">
          <NavLink to="/profile">{t('nav.my_account')}</NavLink>
          <NavLink to="/add-fund">{t('nav.add_funds')}</NavLink>
        </nav>
      )}
      <div className="top-account">
        {/* Until the session answers, a user not remembered may still be signed in: neither the guest's buttons nor
            the avatar, so the one that comes does not replace the other in view. */}
        {user ? (
          <AccountMenu />
        ) : (
          status === 'known' && (
            <>
              <Link to="/login" className="button">
                {t('nav.log_in')}
              </Link>
              <Link to="/register" className="button primary">
                {t('nav.sign_up')}
              </Link>
            </>
          )
        )}
      </div>
    </header>
  );
}
