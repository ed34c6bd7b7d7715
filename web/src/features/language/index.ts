/** The language choice for the account menu, and the remembered language for start-up. */
export { LanguageChoice } from './LanguageChoice.tsx';
export { chooseLanguage, rememberedLanguage } from './language-choice.ts';
