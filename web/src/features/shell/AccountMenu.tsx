import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { session } from '../session/session-store.ts';
import { Avatar } from '../../ui/Avatar.tsx';

/** The top bar's avatar menu (spec §2 Navigation): username and e-mail, then Wallet, Profile, Agreement, Webhook, Sign Out. */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  if (!user) return null;
  const close = () => {
    setOpen(false);
  };
  return (
    <div
      className="account-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      {/* Named by what it shows (WCAG 2.5.3: a voice user says the visible name), then what it is. */}
      <button ref={button} type="button" className="account-button" aria-expanded={open} aria-controls={menuId} onClick={() => { setOpen(!open); }}>
        <Avatar user={user} />
        <span>{user.username}</span>
        <span className="visually-hidden">{t('nav.account_menu')}</span>
      </button>
      <div id={menuId} className="account-dropdown" hidden={!open}>
        <p className="account-who">
          <strong>{user.username}</strong>
          <span>{user.email}</span>
        </p>
        <ul>
          <li><Link to="/wallet" onClick={close}>{t('nav.wallet')}</Link></li>
          <li><Link to="/profile" onClick={close}>{t('nav.profile')}</Link></li>
          <li><Link to="/agreement" onClick={close}>{t('nav.agreement')}</Link></li>
          <li><Link to="/webhook" onClick={close}>{t('nav.webhook')}</Link></li>
          <li><Link to="/login/logout" onClick={close}>{t('nav.sign_out')}</Link></li>
        </ul>
      </div>
    </div>
  );
}
