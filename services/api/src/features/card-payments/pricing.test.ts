import { RATE_SCALE, cashPriceOfCoins } from '@peeks/ledger';
import { describe, expect, it } from 'vitest';
import { purchasableCoins } from './pricing.ts';

describe('purchasableCoins', () => {
  it.each([
    ['USD', RATE_SCALE, { min: 20, max: 10_000 }],
    ['CAD', 780_000, { min: 16, max: 7_800 }],
  ] as const)('spans the coins whose %s charge is within 1 to 500', (currency, rate, expected) => {
    const { min, max } = purchasableCoins(currency, rate);
    expect({ min, max }).toEqual(expected);
    expect(cashPriceOfCoins((min - 1) * 100, currency, rate)).toBeLessThan(100);
    expect(cashPriceOfCoins(min * 100, currency, rate)).toBeGreaterThanOrEqual(100);
    expect(cashPriceOfCoins(max * 100, currency, rate)).toBeLessThanOrEqual(50_000);
    expect(cashPriceOfCoins((max + 1) * 100, currency, rate)).toBeGreaterThan(50_000);
  });
});
