import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { LanguageChoice } from '../language/index.ts';
import { session } from '../session/index.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { useDisclosureMenu } from '../../ui/disclosure-menu.ts';

/** The top bar's avatar menu (spec §2 Navigation): username and e-mail, then Wallet, Profile, Agreement, Webhook, Sign Out. */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const menu = useDisclosureMenu();

  if (!user) return null;
  const close = menu.close;
  return (
    <div className="account-menu" {...menu.rootProps}>
      {/* Named by what it shows (WCAG 2.5.3: a voice user says the visible name), then what it is. */}
      <button className="account-button" {...menu.buttonProps}>
        <Avatar user={user} />
        <span className="account-name">{user.username}</span>
        <span className="visually-hidden">{t('nav.account_menu')}</span>
      </button>
      <div className="account-dropdown" {...menu.menuProps}>
        <p className="account-who">
          <strong>{user.username}</strong>
          <span>{user.email}</span>
        </p>
        <ul>
          <li>
            <Link to="/wallet" onClick={close}>
              {t('nav.wallet')}
            </Link>
          </li>
          <li>
            <Link to="/profile" onClick={close}>
              {t('nav.profile')}
            </Link>
          </li>
          <li>
            <Link to="/agreement" onClick={close}>
              {t('nav.agreement')}
            </Link>
          </li>
          <li>
            <Link to="/webhook" onClick={close}>
              {t('nav.webhook')}
            </Link>
          </li>
          <li>
            <LanguageChoice />
          </li>
          <li>
            <Link to="/login/logout" onClick={close}>
              {t('nav.sign_out')}
            </Link>
          </li>
        </ul>
      </div>
    </div>
  );
}
