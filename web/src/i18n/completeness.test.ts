import { describe, expect, it } from 'vitest';
import { checkoutTexts } from '../features/checkout/i18n.ts';
import { depositsTexts } from '../features/deposits/i18n.ts';
import { qrCodesTexts } from '../features/qr-codes/i18n.ts';
import { agreementsTexts } from '../features/agreements/i18n.ts';
import { languageTexts } from '../features/language/i18n.ts';
import { profileTexts } from '../features/profile/i18n.ts';
import { webhooksTexts } from '../features/webhooks/i18n.ts';

/** Every key path of a dictionary, as "profile.tabs.address", with its text. */
function paths(texts: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof texts !== 'object' || texts === null) return found;
  for (const [key, value] of Object.entries(texts)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null)
      for (const [each, text] of paths(value, path)) found.set(each, text);
    else found.set(path, value);
  }
  return found;
}

/** The screens of issues 23 and 24, complete in every language: no key of theirs falls back to English. */
const complete = {
  profile: profileTexts,
  agreements: agreementsTexts,
  webhooks: webhooksTexts,
  language: languageTexts,
  checkout: checkoutTexts,
  deposits: depositsTexts,
  'qr-codes': qrCodesTexts,
};

describe.each(Object.entries(complete))('the %s texts', (_name, texts) => {
  const english = paths(texts.en);
  it.each(['ja', 'mr'] as const)('in %s have every English key, each a non-empty text', (language) => {
    const translated = paths(texts[language]);
    const missing = [...english.keys()].filter((key) => {
      const text = translated.get(key);
      return typeof text !== 'string' || text.trim() === '';
    });
    expect(missing).toEqual([]);
    const extra = [...translated.keys()].filter((key) => !english.has(key));
    expect(extra).toEqual([]);
  });

  it('would notice a missing key', () => {
    const english = paths({ a: { b: 'x', c: 'y' } });
    const partial = paths({ a: { b: 'x' } });
    expect([...english.keys()].filter((key) => !partial.has(key))).toEqual(['a.c']);
  });
});
