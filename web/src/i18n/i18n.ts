import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, ja, mr } from './texts.ts';

/**
 * i18next with react-i18next: interpolation, fallback to English key by key,
 * and `useTranslation` re-rendering on a language change, for about 15 KB
 * gzipped. The English dictionary types every key (see i18next.d.ts), so a
 * misspelt key fails the typecheck.
 */
export const languages = ['en', 'ja', 'mr'] as const;
export type Language = (typeof languages)[number];

/** The first of the browser's languages we offer (spec §9), by primary subtag; else English. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    const offered = languages.find((language) => language === primary);
    if (offered) return offered;
  }
  return 'en';
}

export const i18n = i18next.createInstance();

export function startI18n(language: Language = pickLanguage(navigator.languages)) {
  void i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: languages,
    resources: { en: { translation: en }, ja: { translation: ja }, mr: { translation: mr } },
    // React escapes what it renders; escaping here too would show &amp;.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  document.documentElement.lang = language;
  return i18n;
}
