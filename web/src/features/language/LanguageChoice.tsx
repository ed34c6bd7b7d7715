import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '../../i18n/i18n.ts';
import { chooseLanguage } from './language-choice.ts';

/** A select of the offered languages, each named in itself; the choice is kept for the next visit. */
export function LanguageChoice() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="language-choice">
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        value={i18n.language}
        onChange={(event) => {
          chooseLanguage(event.target.value as Language);
        }}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
