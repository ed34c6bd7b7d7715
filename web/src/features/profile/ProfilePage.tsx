import { useState, type ReactNode } from 'react';
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
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
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
 * (merchants only), Document Upload, Agreements, in the design system's
 * tabs, which scroll sideways in their own strip rather than wrap.
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const tabs = allTabs.filter((tab) => isMerchant(user) || !merchantOnly.includes(tab));
  const [selected, setSelected] = useState<Tab>('profile');

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

  return (
    <div className="profile-page">
      <PageHeader title={t('profile.title')} />
      <Tabs
        label={t('profile.title')}
        selected={selected}
        onSelect={(id) => {
          setSelected(tabs.find((tab) => tab === id) ?? 'profile');
        }}
        tabs={tabs.map((tab) => ({
          id: tab,
          label: t(`profile.tabs.${tab}`),
          panel: selected === tab ? panels[tab]() : null,
        }))}
      />
    </div>
  );
}
