import type { Dictionary } from './dictionary.ts';
import { addTexts } from './i18n.ts';

/**
 * Adds the texts of an area that loads as its own chunks (the console, the
 * merchant space, history, checkout, profile…) when its chunk loads, so the
 * wallet's first load does not carry them in three languages. Their keys are
 * typed by the app all the same (app/texts.ts); adding them twice is harmless.
 */
export function addLaterTexts(texts: Dictionary<object>): void {
  addTexts(texts);
}
