import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { useLanguageChoice } from '../language/index.ts';
import { session } from '../session/index.ts';
import { Menu, MenuChoice, MenuHeading, MenuLink } from '../../ui/Menu.tsx';

/**
 * The account menu itself (spec §2 Navigation), loaded on the first sign of
 * use (AccountMenu.tsx): the username and e-mail, then Wallet, Profile,
 * Agreement, Webhook, the language choice and Sign Out, as a menu.
 */
export default function AccountMenuList({
  face,
  focusTrigger,
  openAtOnce,
}: {
  face: ReactNode;
  focusTrigger: boolean;
  openAtOnce: 'keyboard' | 'pointer' | undefined;
}) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const language = useLanguageChoice();
  if (!user) return null;
  return (
    <Menu trigger={face} triggerClassName="account-button" focusTrigger={focusTrigger} openAtOnce={openAtOnce}>
      <MenuHeading>
        <strong>{user.username}</strong>
        <span>{user.email}</span>
      </MenuHeading>
      <MenuLink>
        <Link to="/wallet">{t('nav.wallet')}</Link>
      </MenuLink>
      <MenuLink>
        <Link to="/profile">{t('nav.profile')}</Link>
      </MenuLink>
      <MenuLink>
        <Link to="/agreement">{t('nav.agreement')}</Link>
      </MenuLink>
      <MenuLink>
        <Link to="/webhook">{t('nav.webhook')}</Link>
      </MenuLink>
      <MenuChoice {...language} />
      <MenuLink>
        <Link to="/login/logout">{t('nav.sign_out')}</Link>
      </MenuLink>
    </Menu>
  );
}
