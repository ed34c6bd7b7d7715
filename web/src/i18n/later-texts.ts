import type { Dictionary } from './dictionary.ts';
import { i18n, languages } from './i18n.ts';

/**
 * Adds the texts of an area that loads as its own chunks (the console, the
 * merchant space, history, checkout) when its chunk loads, so the wallet's
 * first load does not carry them in three languages. Their keys are typed
 * in texts.ts all the same; adding them twice is harmless.
 */
export function addLaterTexts(texts: Dictionary<object>): void {
  for (const language of languages) i18n.addResourceBundle(language, 'translation', texts[language], true, false);
}
