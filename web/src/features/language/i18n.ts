import { dictionary } from '../../i18n/dictionary.ts';

/** The language choice in the account menu; each language is named in itself. */
export const languageTexts = dictionary({
  en: { language: { label: 'Language', en: 'English', ja: '日本語', mr: 'मराठी' } },
  ja: { language: { label: '言語', en: 'English', ja: '日本語', mr: 'मराठी' } },
  mr: { language: { label: 'भाषा', en: 'English', ja: '日本語', mr: 'मराठी' } },
});
