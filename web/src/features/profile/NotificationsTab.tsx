import { notificationTypes, notifyMethods, preferenceDefaults, type UserPreferences } from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api.ts';
import { ServerErrors } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { session } from '../session/index.ts';
import { preferences, setPreference } from './profile-api.ts';

/**
 * The Notifications tab (spec §2, §4): two lists of on/off toggles, each
 * labelled by its key; a toggle flips at once and sends the change, and
 * flips back if the server refuses it.
 */
export function NotificationsTab() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const [prefs, setPrefs] = useState<UserPreferences | null>(null);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const userId = user?.user_id;
  useEffect(() => {
    if (userId === undefined) return;
    preferences(userId)
      .then(setPrefs)
      .catch((error: unknown) => {
        if (error instanceof ApiError) setErrors(error.texts);
      });
  }, [userId]);
  if (userId === undefined) return null;

  const flip = (section: 'notifications' | 'notify-methods', key: string, enabled: boolean) => {
    setErrors([]);
    setPrefs((each) => each && { ...each, [section]: { ...each[section], [key]: enabled } });
    setPreference(userId, key, enabled)
      .then(setPrefs)
      .catch((error: unknown) => {
        setPrefs((each) => each && { ...each, [section]: { ...each[section], [key]: !enabled } });
        if (error instanceof ApiError) setErrors(error.texts);
      });
  };
  const list = (section: 'notifications' | 'notify-methods', keys: readonly string[], title: string) => (
    <fieldset className="toggle-list">
      <legend>{title}</legend>
      {keys.map((key) => {
        const stored = prefs?.[section]?.[key];
        const on = stored ?? (preferenceDefaults[section] as Record<string, boolean>)[key] ?? false;
        return (
          <label key={key} className="toggle">
            <input
              type="checkbox"
              role="switch"
              checked={on}
              onChange={(event) => {
                flip(section, key, event.target.checked);
              }}
            />
            <span>{key}</span>
          </label>
        );
      })}
    </fieldset>
  );
  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('profile.tabs.notifications')}</h2>
      <ServerErrors texts={errors} />
      {prefs === null && errors.length === 0 && <PageLoader label={t('profile.loading')} />}
      {prefs !== null && (
        <div className="toggle-columns">
          {list('notifications', notificationTypes, t('profile.notification_types'))}
          {list('notify-methods', notifyMethods, t('profile.notification_methods'))}
        </div>
      )}
    </section>
  );
}
