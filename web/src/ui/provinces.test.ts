import { describe, expect, it } from 'vitest';
import { provinceChoices } from './provinces.ts';

describe('province lists (spec §9)', () => {
  it('has the 50 US states and 13 Canadian provinces and territories, by two-letter code; other countries type theirs', () => {
    expect(provinceChoices('US')).toHaveLength(50);
    expect(provinceChoices('CA')).toHaveLength(13);
    expect(provinceChoices('CA')).toContainEqual({ value: 'ON', label: 'Ontario' });
    expect(
      [...(provinceChoices('US') ?? []), ...(provinceChoices('CA') ?? [])].every((choice) =>
        /^[A-Z]{2}$/.test(choice.value),
      ),
    ).toBe(true);
    expect(provinceChoices('FR')).toBeNull();
  });
});
