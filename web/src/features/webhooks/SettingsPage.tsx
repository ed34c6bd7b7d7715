import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { WebhooksPanel } from './WebhooksPage.tsx';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { webhooksTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(webhooksTexts);

/** /setting (spec §2): Settings with a single Webhook tab, in the design system's tabs. */
export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="settings">
      <PageHeader title={t('webhooks.settings_title')} />
      <Tabs
        label={t('webhooks.settings_title')}
        selected="webhook"
        onSelect={() => undefined}
        tabs={[{ id: 'webhook', label: t('webhooks.settings_tab'), panel: <WebhooksPanel headingLevel={2} /> }]}
      />
    </div>
  );
}
