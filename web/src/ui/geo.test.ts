import { describe, expect, it } from 'vitest';
import { countryChoices, withDateDashes } from './geo.ts';

describe('withDateDashes (DD-MM-YYYY, spec §2)', () => {
  it.each([
    ['1', '', '1'],
    ['15', '1', '15-'],
    ['15-0', '15-', '15-0'],
    ['15-06', '15-0', '15-06-'],
    ['15-06-1990', '15-06-199', '15-06-1990'],
    ['15-06-19901', '15-06-1990', '15-06-1990'],
    ['15-', '15-0', '15'],
    ['15', '15-', '15'],
    ['1a5/06', '', '15-06-'],
  ])('typing %j after %j gives %j', (typed, previous, expected) => {
    expect(withDateDashes(typed, previous)).toBe(expected);
  });
});

describe('countryChoices', () => {
  it('offers Canada and the United States first, names in the given language, ISO codes as values', () => {
    const choices = countryChoices('en');
    expect(choices.slice(0, 2)).toEqual([
      { value: 'CA', label: 'Canada' },
      { value: 'US', label: 'United States' },
    ]);
    expect(choices.every((choice) => /^[A-Z]{2}$/.test(choice.value))).toBe(true);
    expect(countryChoices('ja')[0]?.label).toBe('カナダ');
  });
});
