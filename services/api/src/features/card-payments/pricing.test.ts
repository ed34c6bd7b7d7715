import { DEFAULT_RATE_MICROS, coinsForCash } from '@peeks/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeForCoins, purchasableCoins } from './pricing.ts';

describe('chargeForCoins', () => {
  it('is the smallest charge that buys the coins: it buys exactly them, a cent less buys fewer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 10_000, max: 4_999_999 }),
        fc.constantFrom('USD' as const, 'CAD' as const),
        (coins, rate, currency) => {
          const charge = chargeForCoins(coins * 100, currency, rate);
          expect(coinsForCash(charge, currency, rate)).toBe(coins * 100);
          expect(coinsForCash(charge - 1, currency, rate)).toBeLessThan(coins * 100);
        },
      ),
    );
  });

  it('prices 100 coins at $6.42 at the default rate', () => {
    expect(chargeForCoins(10_000, 'USD', DEFAULT_RATE_MICROS)).toBe(642);
  });
});

describe('purchasableCoins', () => {
  it('spans the coins whose charge is within $1 to $500', () => {
    const { min, max } = purchasableCoins('USD', DEFAULT_RATE_MICROS);
    expect({ min, max }).toEqual({ min: 16, max: 7800 });
    expect(chargeForCoins((min - 1) * 100, 'USD', DEFAULT_RATE_MICROS)).toBeLessThan(100);
    expect(chargeForCoins(min * 100, 'USD', DEFAULT_RATE_MICROS)).toBeGreaterThanOrEqual(100);
    expect(chargeForCoins(max * 100, 'USD', DEFAULT_RATE_MICROS)).toBeLessThanOrEqual(50_000);
    expect(chargeForCoins((max + 1) * 100, 'USD', DEFAULT_RATE_MICROS)).toBeGreaterThan(50_000);
  });
});
