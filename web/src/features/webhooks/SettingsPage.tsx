import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { WebhooksPanel } from './WebhooksPage.tsx';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { webhooksTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(webhooksTexts);

/** /setting (spec §2): Settings with a single Webhook tab. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const tabId = useId();
  return (
    <div className="settings" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('webhooks.settings_title')}</h1>
      <div role="tablist" aria-label={t('webhooks.settings_title')} className="tabs">
        <button
          type="button"
          role="tab"
          id={tabId}
          aria-selected="true"
          aria-controls={`${tabId}-panel`}
          className="tab"
        >
          {t('webhooks.settings_tab')}
        </button>
      </div>
      <div role="tabpanel" id={`${tabId}-panel`} aria-labelledby={tabId}>
        <WebhooksPanel headingLevel={2} />
      </div>
    </div>
  );
}
