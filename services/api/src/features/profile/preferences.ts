import {
  notificationTypes,
  preferenceDefaults,
  preferenceSections,
  type PreferenceSection,
  type UserPreferences,
} from '@peeks/contracts';

/** The section a preference key belongs to; keys are unique across both. */
export function sectionOf(key: string): PreferenceSection {
  return (notificationTypes as readonly string[]).includes(key) ? 'notifications' : 'notify-methods';
}

/** The defaults with the user's own choices over them, for the sections asked for ('all': both). */
export function preferencesOf(
  stored: readonly { section: PreferenceSection; key: string; enabled: boolean }[],
  wanted: readonly (PreferenceSection | 'all')[],
): UserPreferences {
  const sections = wanted.includes('all')
    ? preferenceSections
    : preferenceSections.filter((section) => wanted.includes(section));
  const preferences: UserPreferences = {};
  for (const section of sections) {
    const values: Record<string, boolean> = { ...preferenceDefaults[section] };
    // A key dropped from the defaults since it was stored is no longer offered.
    for (const row of stored) if (row.section === section && row.key in values) values[row.key] = row.enabled;
    preferences[section] = values;
  }
  return preferences;
}
