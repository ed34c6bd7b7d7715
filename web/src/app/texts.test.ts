import { describe, expect, it } from 'vitest';
import { clashingKeys, dictionary } from '../i18n/dictionary.ts';
import { dictionaries, en, ja } from './texts.ts';

describe('the feature dictionaries', () => {
  it('claim each top-level key once, so no feature overwrites another', () => {
    expect(clashingKeys(dictionaries)).toEqual([]);
  });

  it('would report a key claimed twice', () => {
    const one = dictionary({ en: { wallet: { title: 'Wallet' } }, ja: {}, mr: {} });
    const two = dictionary({ en: { wallet: { other: 'Other' }, transfer: { title: 'Transfer' } }, ja: {}, mr: {} });
    expect(clashingKeys([one, two])).toEqual(['wallet']);
  });

  it('merge every feature into one English dictionary and keep the other languages partial', () => {
    expect(Object.keys(en)).toEqual(dictionaries.flatMap((texts) => Object.keys(texts.en)));
    expect(en.wallet.title).toBeTypeOf('string');
    expect(ja.nav?.wallet).toBe('ウォレット');
  });
});
