import {
  depositStatuses,
  ledgerTypeLabels,
  notificationTypes,
  notifyMethods,
  transactionStates,
  transactionTypes,
  webhookDeliveryStates,
  webhookEvents,
} from '@peeks/contracts';
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

/**
 * The values the API sends as codes and the screens show as words: each has
 * its text in every language, and Japanese and Marathi say it in their own
 * words rather than repeat the English or the code.
 */
const dataDrivenLabels: [path: string, codes: readonly string[]][] = [
  ['words.states', transactionStates],
  ['words.transaction_types', transactionTypes],
  ['words.ledger_types', Object.keys(ledgerTypeLabels)],
  ['wallet.activity.kinds', transactionTypes],
  ['profile.notify', [...notificationTypes, ...notifyMethods]],
  ['webhooks.event_names', webhookEvents],
  ['webhooks.state', webhookDeliveryStates.map((state) => `_${state}`)],
  ['deposits.statuses', depositStatuses],
  ['operations.people.columns', ['date', 'type', 'state', 'amount']],
];

/** The text at "profile.notify" + "deposit" (or + "_pending", glued, for keys such as state_pending) in a language. */
function textAt(language: 'en' | 'ja' | 'mr', path: string, code: string): unknown {
  const all = new Map<string, unknown>();
  for (const [, texts] of walked) for (const [key, text] of paths(texts[language])) all.set(key, text);
  const key = code.startsWith('_') ? `${path}${code}` : `${path}.${code}`;
  // A counted word has its plural forms instead (confirming_one, confirming_other).
  return all.get(key) ?? all.get(`${key}_other`);
}

describe.each(dataDrivenLabels)('the data-driven labels at %s', (path, codes) => {
  it('have a text for every code in English, and their own words in Japanese and Marathi', () => {
    expect(codes.length).toBeGreaterThan(0);
    const lacking = codes.filter((code) => typeof textAt('en', path, code) !== 'string');
    expect(lacking, `${path}: English lacks`).toEqual([]);
    for (const language of ['ja', 'mr'] as const) {
      const untranslated = codes.filter((code) => {
        const text = textAt(language, path, code);
        return typeof text !== 'string' || text === textAt('en', path, code) || text === code.replace(/^_/, '');
      });
      expect(untranslated, `${path}: ${language} shows these in English or as codes`).toEqual([]);
    }
  });
});

describe('the screens', () => {
  it('name no table column in English inside the code', () => {
    const sources = import.meta.glob<string>(['../features/**/*.tsx', '../ui/**/*.tsx', '!../**/*.test.tsx'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const literal = Object.entries(sources)
      .filter(([, text]) => /\b(header|heading): '[A-Z]/.test(text))
      .map(([file]) => file);
    expect(literal).toEqual([]);
  });
});
