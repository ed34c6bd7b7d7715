import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencies, formatMinorUnits, isCurrency, isMinorUnits, minorUnitsPerMajor } from './money.ts';

describe('money', () => {
  it('knows the four currencies and nothing else', () => {
    expect(currencies.filter(isCurrency)).toEqual(['USD', 'CAD', 'CON', 'IMP']);
    expect(isCurrency('BTC')).toBe(false);
    expect(isCurrency('usd')).toBe(false);
  });

  it('accepts only exact whole numbers as amounts', () => {
    expect(isMinorUnits(1250)).toBe(true);
    expect(isMinorUnits(-3)).toBe(true);
    for (const bad of [12.5, Number.NaN, Infinity, 2 ** 53, '100', null]) expect(isMinorUnits(bad)).toBe(false);
  });

  it('writes amounts in major units without floating point', () => {
    expect(formatMinorUnits(1234, 'USD')).toBe('12.34');
    expect(formatMinorUnits(5, 'CAD')).toBe('0.05');
    expect(formatMinorUnits(-101, 'CON')).toBe('-1.01');
    expect(formatMinorUnits(42, 'IMP')).toBe('42');
    expect(() => formatMinorUnits(0.1 + 0.2, 'USD')).toThrow(RangeError);
  });

  it('round-trips every amount through its major-unit text', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.constantFrom(...currencies), (amount, currency) => {
        const [whole = '', fraction = ''] = formatMinorUnits(amount, currency).replace('-', '').split('.');
        const back = BigInt(whole) * BigInt(minorUnitsPerMajor[currency]) + BigInt(fraction || '0');
        expect(amount < 0 ? -back : back).toBe(BigInt(amount));
      }),
    );
  });
});
