import { describe, expect, it } from 'vitest';
import { uiTexts } from '../ui/i18n.ts';
import { validationTexts } from '../i18n/validation-texts.ts';
import type { Dictionary } from '../i18n/dictionary.ts';
import { dictionaries } from './texts.ts';

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

/** The English keys a language lacks (or leaves empty), and the keys it has that English does not. */
function compare(english: unknown, translated: unknown, allowedMissing: (key: string) => boolean = () => false) {
  const en = paths(english);
  const other = paths(translated);
  const missing = [...en.keys()].filter((key) => {
    const text = other.get(key);
    return (typeof text !== 'string' || text.trim() === '') && !allowedMissing(key);
  });
  const extra = [...other.keys()].filter((key) => !en.has(key));
  return { missing, extra };
}

/**
 * The legal pages' clauses wait for a legal translator (see features/legal/i18n.ts):
 * their headings are translated, their paragraphs fall back to English. Only
 * those paragraphs may be missing, and only there.
 */
const clausesAwaitingLegalTranslation = (key: string) =>
  /^legal\.(terms|privacy)\.[a-z]+$/.test(key) && !key.endsWith('title');

/**
 * Every feature's dictionary, found on disk rather than listed by hand, so a
 * new feature (or one loaded later, like the operations console) cannot be
 * left out; plus the shared kit's and its validation messages'.
 */
const features = import.meta.glob<Record<string, unknown>>('../features/*/i18n.ts', { eager: true });
const walked: [string, Dictionary<object>][] = [
  ...Object.entries(features).map(([file, module]): [string, Dictionary<object>] => {
    const name = /features\/([^/]+)\/i18n\.ts$/.exec(file)?.[1] ?? file;
    const found = Object.values(module).filter(
      (value): value is Dictionary<object> => typeof value === 'object' && value !== null && 'en' in value,
    );
    if (found.length !== 1) throw new Error(`${file} should export one dictionary, it exports ${found.length}`);
    return [name, found[0] as Dictionary<object>];
  }),
  ['ui', uiTexts],
  ['validation', validationTexts],
];

describe('the dictionaries walked', () => {
  it('include every feature folder and every dictionary the app merges', () => {
    expect(walked.length).toBeGreaterThanOrEqual(20);
    const seen = new Set(walked.map(([, texts]) => texts));
    expect(dictionaries.filter((texts) => !seen.has(texts))).toEqual([]);
    expect(walked.map(([name]) => name)).toContain('operations');
  });
});

describe.each(walked)('the %s texts', (name, texts) => {
  it.each(['ja', 'mr'] as const)('in %s have exactly the English keys, each a non-empty text', (language) => {
    const { missing, extra } = compare(
      texts.en,
      texts[language],
      name === 'legal' ? clausesAwaitingLegalTranslation : undefined,
    );
    expect(missing, `${name}: ${language} lacks these English keys`).toEqual([]);
    expect(extra, `${name}: ${language} has keys English does not`).toEqual([]);
  });
});

describe('the comparison', () => {
  it('names a missing key, an empty text and an extra key', () => {
    const english = { a: { b: 'x', c: 'y', d: 'z' }, e: '{{n}} left' };
    expect(compare(english, { a: { b: 'x', d: ' ' }, e: 'n', f: 'extra' })).toEqual({
      missing: ['a.c', 'a.d'],
      extra: ['f'],
    });
  });

  it('lets only the legal clauses fall back, never their headings or another feature', () => {
    expect(clausesAwaitingLegalTranslation('legal.terms.money')).toBe(true);
    expect(clausesAwaitingLegalTranslation('legal.terms.money_title')).toBe(false);
    expect(clausesAwaitingLegalTranslation('legal.updated')).toBe(false);
    expect(clausesAwaitingLegalTranslation('merchant.terms.money')).toBe(false);
  });
});

describe.each(walked)('the %s texts keep', (name, texts) => {
  it.each(['ja', 'mr'] as const)('every {{placeholder}} of English in %s', (language) => {
    const english = paths(texts.en);
    const wrong = [...paths(texts[language])].filter(([key, text]) => {
      const want = placeholders(english.get(key));
      const have = placeholders(text);
      return want.join() !== have.join();
    });
    expect(
      wrong.map(([key]) => key),
      `${name}: ${language} changes these placeholders`,
    ).toEqual([]);
  });
});

function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}
