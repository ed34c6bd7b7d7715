import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AgreementsTable } from '../agreements/index.ts';
import { isMerchant, session } from '../session/index.ts';
import { AddressTab } from './AddressTab.tsx';
import { DocumentTab } from './DocumentTab.tsx';
import { MerchantTab } from './MerchantTab.tsx';
import { NotificationsTab } from './NotificationsTab.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { TerminalTab } from './TerminalTab.tsx';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { profileTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(profileTexts);

const allTabs = [
  'profile',
  'merchant',
  'address',
  'security',
  'notifications',
  'terminal',
  'documents',
  'agreements',
] as const;
type Tab = (typeof allTabs)[number];
const merchantOnly: readonly Tab[] = ['merchant', 'terminal'];

/**
 * /profile and /profile/personal (spec §2 "Profile page"): Profile, Merchant
 * (merchants only), Address, Security, Notifications, Merchant Terminal
 * (merchants only), Document Upload, Agreements. WAI-ARIA tabs: one tab
 * stop, arrow keys move between them.
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const tabs = allTabs.filter((tab) => isMerchant(user) || !merchantOnly.includes(tab));
  const [selected, setSelected] = useState<Tab>('profile');
  const baseId = useId();
  const titleId = `${baseId}-title`;

  const panels: Record<Tab, () => ReactNode> = {
    profile: () => <ProfileTab />,
    merchant: () => <MerchantTab />,
    address: () => <AddressTab />,
    security: () => <SecurityTab />,
    notifications: () => <NotificationsTab />,
    terminal: () => <TerminalTab />,
    documents: () => <DocumentTab />,
    agreements: () => <AgreementsTable headingLevel={2} />,
  };
  const move = (from: Tab, step: number) => {
    const index = (tabs.indexOf(from) + step + tabs.length) % tabs.length;
    const next = tabs[index] ?? 'profile';
    setSelected(next);
    document.getElementById(`${baseId}-tab-${next}`)?.focus();
  };

  return (
    <div className="profile-page">
      <h1 id={titleId}>{t('profile.title')}</h1>
      <div role="tablist" aria-labelledby={titleId} className="tabs">
        {tabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab}`}
            aria-selected={selected === tab}
            aria-controls={`${baseId}-panel`}
            tabIndex={selected === tab ? 0 : -1}
            className="tab"
            onClick={() => {
              setSelected(tab);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight') move(tab, 1);
              else if (event.key === 'ArrowLeft') move(tab, -1);
              else if (event.key === 'Home') move(tabs[0] ?? tab, 0);
              else if (event.key === 'End') move(tabs.at(-1) ?? tab, 0);
            }}
          >
            {t(`profile.tabs.${tab}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${selected}`} className="tab-panel">
        {panels[selected]()}
      </div>
    </div>
  );
}
