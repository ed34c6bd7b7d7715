import { RATE_SCALE, coinsForCash } from '@peeks/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cashForCoins, coinMicrosPerUnit, rateOf, rateText, termsOf, type CashCurrency } from './price-list.ts';

const cash = fc.constantFrom<CashCurrency>('USD', 'CAD');
// Rates from 0.01 to 4.99 dollars a unit: at 5 or more, one cent buys more than a whole coin.
const rate = fc.integer({ min: 10_000, max: 4_999_999 });

describe('the price list', () => {
  it('prices coins in US dollars, 20 a dollar, and a Canadian dollar at its rate: 15.6 at 0.78', () => {
    const rates = { CAD: 780_000 };
    expect(rateText(coinMicrosPerUnit(rateOf('USD', rates)))).toBe('20');
    expect(rateText(coinMicrosPerUnit(rateOf('CAD', rates)))).toBe('15.6');
    expect(coinsForCash(100_00, 'USD', rateOf('USD', rates))).toBe(2_000_00);
    expect(coinsForCash(100_00, 'CAD', rateOf('CAD', rates))).toBe(1_560_00);
  });

  it('makes 1,000 coins cost more in Canadian dollars than in US dollars while the dollar is worth more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: RATE_SCALE - 1 }), fc.integer({ min: 1, max: 100_000 }), (cad, n) => {
        const usd = termsOf({ from: 'USD', to: 'CON', amountOut: n * 100 }, RATE_SCALE);
        const inCad = termsOf({ from: 'CAD', to: 'CON', amountOut: n * 100 }, cad);
        if ('unpriceable' in usd || 'unpriceable' in inCad) throw new Error('whole coins are priceable');
        expect(inCad.amountIn).toBeGreaterThanOrEqual(usd.amountIn);
      }),
    );
    const usd = termsOf({ from: 'USD', to: 'CON', amountOut: 1_000_00 }, RATE_SCALE);
    const cad = termsOf({ from: 'CAD', to: 'CON', amountOut: 1_000_00 }, 780_000);
    expect([usd, cad]).toEqual([
      { amountIn: 50_00, amountOut: 1_000_00, fee: 0 },
      { amountIn: 64_11, amountOut: 1_000_00, fee: 0 },
    ]);
  });

  it('prices coins asked for at the least cash that buys exactly them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), rate, cash, (coins, micros, currency) => {
        const terms = termsOf({ from: currency, to: 'CON', amountOut: coins * 100 }, micros);
        if ('unpriceable' in terms) throw new Error('whole coins are priceable');
        expect(coinsForCash(terms.amountIn, currency, micros)).toBe(coins * 100);
        expect(coinsForCash(terms.amountIn - 1, currency, micros)).toBeLessThan(coins * 100);
        expect(terms.fee).toBe(0);
      }),
    );
  });

  it('buys whole coins only, and refuses an amount that buys none', () => {
    expect(termsOf({ from: 'USD', to: 'CON', amountOut: 150 }, RATE_SCALE)).toEqual({ unpriceable: 'whole-coins' });
    expect(termsOf({ from: 'USD', to: 'CON', amountIn: 4 }, RATE_SCALE)).toEqual({ unpriceable: 'nothing' });
    expect(termsOf({ from: 'USD', to: 'CON', amountIn: 5 }, RATE_SCALE)).toEqual({
      amountIn: 5,
      amountOut: 100,
      fee: 0,
    });
  });

  it('sells coins for cash rounded down, and asks the fewest coins that give at least the cash wanted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), rate, cash, (cents, micros, currency) => {
        const terms = termsOf({ from: 'CON', to: currency, amountOut: cents }, micros);
        if ('unpriceable' in terms) throw new Error('cash out is always priceable');
        expect(cashForCoins(terms.amountIn, currency, micros)).toBeGreaterThanOrEqual(cents);
        expect(cashForCoins(terms.amountIn - 1, currency, micros)).toBeLessThan(cents);
        const back = termsOf({ from: 'CON', to: currency, amountIn: terms.amountIn }, micros);
        if ('unpriceable' in back) throw new Error('the coins give cash');
        expect(back.amountOut).toBeGreaterThanOrEqual(cents);
      }),
    );
  });

  it('never gives more value than it takes, either way, at the same rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), rate, cash, (cents, micros, currency) => {
        const bought = termsOf({ from: currency, to: 'CON', amountIn: cents }, micros);
        if ('unpriceable' in bought) return;
        const sold = termsOf({ from: 'CON', to: currency, amountIn: bought.amountOut }, micros);
        if ('unpriceable' in sold) throw new Error('coins bought sell for something');
        expect(sold.amountOut).toBeLessThanOrEqual(cents);
      }),
    );
  });

  it('writes a rate in millionths as a decimal without a float', () => {
    expect([rateText(20_000_000), rateText(15_600_000), rateText(1_234_567), rateText(500)]).toEqual([
      '20',
      '15.6',
      '1.234567',
      '0.0005',
    ]);
  });
});
