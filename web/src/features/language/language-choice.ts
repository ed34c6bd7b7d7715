import { useTranslation } from 'react-i18next';
import { i18n, languages, type Language } from '../../i18n/i18n.ts';

// A cookie rather than localStorage: signing out clears local storage (spec §4), and the language should outlive that.
const COOKIE = 'peeks_lang';

/** The language the user chose, if any. */
export function rememberedLanguage(): Language | null {
  const stored = /(?:^|;\s*)peeks_lang=([a-z]{2})/.exec(document.cookie)?.[1];
  return languages.find((language) => language === stored) ?? null;
}

export function chooseLanguage(language: Language) {
  document.cookie = `${COOKIE}=${language}; path=/; max-age=31536000; SameSite=Lax`;
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/**
 * The language choice as the account menu shows it (ui/Menu.tsx's MenuChoice):
 * its name, the language in use, the offered ones each named in itself, and
 * the choice, kept for the next visit. Data, not a component, so this
 * feature (in the first load) does not bring the menu's library with it.
 */
export function useLanguageChoice() {
  const { t, i18n: current } = useTranslation();
  return {
    label: t('language.label'),
    value: languages.find((language) => language === current.language) ?? 'en',
    options: languages.map((language) => ({ value: language, label: t(`language.${language}`), lang: language })),
    onChange: chooseLanguage,
  };
}
