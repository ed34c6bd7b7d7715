import { notificationTypes, notifyMethods, preferenceDefaults, type UserPreferences } from '@peeks/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { Card } from '../../ui/Card.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { session } from '../session/index.ts';
import { profileKeys, setPreference, usePreferences } from './profile-api.ts';

type Section = 'notifications' | 'notify-methods';
type Key = (typeof notificationTypes)[number] | (typeof notifyMethods)[number];

/**
 * The Notifications tab (spec §2, §4): what the user is told about and how,
 * each an on/off switch named in words. A switch flips at once (the cached
 * preferences are changed), sends the change, and flips back if the server
 * refuses it.
 */
export function NotificationsTab() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const userId = user?.user_id ?? 0;
  const preferences = usePreferences(userId);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const key = profileKeys.preferences(userId);
  const flip = useMutation({
    mutationFn: ({ name, enabled }: { section: Section; name: Key; enabled: boolean }) =>
      setPreference(userId, name, enabled),
    onMutate: ({ section, name, enabled }) => {
      setErrors([]);
      queryClient.setQueryData<UserPreferences>(key, (each) => each && withValue(each, section, name, enabled));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
    },
    onError: (error, { section, name, enabled }) => {
      queryClient.setQueryData<UserPreferences>(key, (each) => each && withValue(each, section, name, !enabled));
      if (error instanceof ApiError) setErrors(error.texts);
    },
  });
  if (user === null) return null;

  const list = (section: Section, keys: readonly Key[], title: string, prefs: UserPreferences) => (
    <fieldset className="toggle-list">
      <legend>{title}</legend>
      {keys.map((name) => (
        <Toggle
          key={name}
          label={t(`profile.notify.${name}`)}
          on={isOn(prefs, section, name)}
          onChange={(enabled) => {
            flip.mutate({ section, name, enabled });
          }}
        />
      ))}
    </fieldset>
  );
  return (
    <Card title={t('profile.tabs.notifications')}>
      <p className="muted">{t('profile.notification_intro')}</p>
      <ServerErrors texts={errors} />
      <QueryView query={preferences} loading={<Skeleton lines={6} label={t('profile.loading')} />}>
        {(prefs) => (
          <div className="toggle-columns">
            {list('notifications', notificationTypes, t('profile.notification_types'), prefs)}
            {list('notify-methods', notifyMethods, t('profile.notification_methods'), prefs)}
          </div>
        )}
      </QueryView>
    </Card>
  );
}

function Toggle({ label, on, onChange }: { label: string; on: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="toggle">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
    </div>
  );
}

/** The stored choice, else the product's default (everything on but SMS and the newsletter). */
function isOn(prefs: UserPreferences, section: Section, name: Key): boolean {
  const stored = (prefs[section] as Record<string, boolean | undefined> | undefined)?.[name];
  return stored ?? (preferenceDefaults[section] as Record<string, boolean>)[name] ?? false;
}

const withValue = (prefs: UserPreferences, section: Section, name: Key, enabled: boolean): UserPreferences => ({
  ...prefs,
  [section]: { ...prefs[section], [name]: enabled },
});
