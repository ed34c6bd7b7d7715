/** The language choice for the account menu, and the remembered language for start-up. */
export { chooseLanguage, rememberedLanguage, useLanguageChoice } from './language-choice.ts';
