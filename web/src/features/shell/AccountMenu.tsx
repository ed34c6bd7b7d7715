import { useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { session } from '../session/index.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import type AccountMenuList from './AccountMenuList.tsx';

type Loaded = ComponentType<Parameters<typeof AccountMenuList>[0]>;

let loading: Promise<Loaded> | null = null;
// The menu (Radix's) is not in the first load: it loads when the pointer or the focus comes to the button.
const loadMenu = () => (loading ??= import('./AccountMenuList.tsx').then((module) => module.default));

/**
 * The top bar's avatar menu (spec §2 Navigation), a menu button. Until the
 * menu's code is here this stands in for its button, looking the same; the
 * pointer or the focus on it loads the code, and a press, Enter, Space or
 * ArrowDown before it came opens the menu once it has.
 */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const [List, setList] = useState<Loaded | null>(null);
  const [openAtOnce, setOpenAtOnce] = useState<'keyboard' | 'pointer'>();
  const [focusTrigger, setFocusTrigger] = useState(false);
  const standIn = useRef<HTMLButtonElement>(null);

  if (!user) return null;
  // Named by what it shows (WCAG 2.5.3: a voice user says the visible name), then what it is.
  const face = (
    <>
      <Avatar user={user} />
      <span className="account-name">{user.username}</span>
      <span className="visually-hidden">{t('nav.account_menu')}</span>
    </>
  );
  if (List) return <List face={face} focusTrigger={focusTrigger} openAtOnce={openAtOnce} />;

  const load = () => {
    void loadMenu().then(
      (loaded) => {
        setFocusTrigger(document.activeElement === standIn.current);
        setList(() => loaded);
      },
      // Not loaded (offline): the next attempt asks again.
      () => {
        loading = null;
      },
    );
  };
  const open = (how: 'keyboard' | 'pointer') => {
    setOpenAtOnce(how);
    load();
  };
  return (
    <button
      ref={standIn}
      type="button"
      className="account-button"
      aria-haspopup="menu"
      aria-expanded={openAtOnce !== undefined}
      onPointerEnter={load}
      onFocus={load}
      // As the menu's own button does: a press opens it (not the click after, which a swap in between would lose).
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        open('pointer');
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
        event.preventDefault();
        open('keyboard');
      }}
      // A screen reader's click comes alone, with no press or key before it.
      onClick={() => {
        if (openAtOnce === undefined) open('keyboard');
      }}
    >
      {face}
    </button>
  );
}
