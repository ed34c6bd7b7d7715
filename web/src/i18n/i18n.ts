import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Dictionary } from './dictionary.ts';

/**
 * i18next with react-i18next: interpolation, fallback to English key by key,
 * and `useTranslation` re-rendering on a language change, for about 15 KB
 * gzipped. Each top-level key of a feature's dictionary (`wallet`, `nav`…)
 * is an i18next namespace, which the feature adds when its code loads
 * (`addTexts`); this module knows no feature. The namespace separator is the
 * key separator, so `t('wallet.title')` reads `title` in the `wallet`
 * namespace once that namespace is added. The keys are typed by the app
 * (app/i18next.d.ts), so a misspelt key fails the typecheck.
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

/**
 * The dictionaries added so far, and the languages whose texts are in
 * i18next: English (every key's fallback) and the one shown. Another
 * language's texts go in when it is chosen, not at start: adding all three
 * cost the first load a third of its start-up work in the dictionaries.
 */
const dictionaries = new Set<Dictionary<object>>();
const inUse = new Set<Language>(['en']);

function addLanguage(texts: Dictionary<object>, language: Language): void {
  for (const namespace of Object.keys(texts.en)) {
    const own = (texts[language] as Record<string, object | undefined>)[namespace];
    i18n.addResourceBundle(language, namespace, own ?? {}, true, false);
  }
}

export function startI18n(language: Language = pickLanguage(navigator.languages)) {
  void i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: languages,
    // The default namespace stays empty: every text lives in its feature's namespaces.
    ns: ['translation'],
    defaultNS: 'translation',
    nsSeparator: '.',
    resources: { en: { translation: {} }, ja: { translation: {} }, mr: { translation: {} } },
    // React escapes what it renders; escaping here too would show &amp;.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  inUse.add(language);
  // Before react-i18next hears the change (it listens from the first render on), so the screens re-render
  // with the chosen language's texts already in.
  i18n.on('languageChanged', (chosen) => {
    const offered = languages.find((each) => each === chosen);
    if (offered === undefined || inUse.has(offered)) return;
    inUse.add(offered);
    for (const texts of dictionaries) addLanguage(texts, offered);
  });
  document.documentElement.lang = language;
  return i18n;
}

/**
 * Adds a dictionary's texts, one namespace per top-level key, in the
 * languages in use (the others when they are chosen). Adding them again (a
 * chunk loaded twice, a test) is harmless.
 */
export function addTexts(texts: Dictionary<object>): void {
  dictionaries.add(texts);
  for (const language of inUse) addLanguage(texts, language);
  const namespaces = i18n.options.ns;
  for (const namespace of Object.keys(texts.en)) {
    // A key's first part is read as a namespace only once the namespace is listed.
    if (Array.isArray(namespaces) && !namespaces.includes(namespace)) namespaces.push(namespace);
  }
}
