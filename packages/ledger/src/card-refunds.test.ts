import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardRefundOf } from './card-refunds.ts';

/** A sale, its card's charge, and returns that take from it in turn until asked for more than is left. */
const saleAndReturns = fc
  .record({
    sale: fc.integer({ min: 1, max: 1_000_000 }),
    charge: fc.integer({ min: 1, max: 1_000_000 }),
    asks: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 60 }),
    completes: fc.boolean(),
  })
  .map(({ sale, charge, asks, completes }) => {
    const returns: number[] = [];
    let left = sale;
    for (const ask of asks) {
      const amount = Math.min(ask, left);
      if (amount === 0) break;
      returns.push(amount);
      left -= amount;
    }
    if (completes && left > 0) returns.push(left);
    return { sale, charge, returns };
  });

/** Each return's refund, in order, as the ledger decides them: each against the returns before it. */
function refundsOf({ sale, charge, returns }: { sale: number; charge: number; returns: number[] }) {
  let returnedBefore = 0;
  return returns.map((amount) => {
    const refund = cardRefundOf({ charge, sale, returnedBefore, amount });
    returnedBefore += amount;
    return { amount, refund, returned: returnedBefore };
  });
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('the card refund of a return', () => {
  it('never gives back more than the charge, and all of it once the whole sale is returned', () => {
    fc.assert(
      fc.property(saleAndReturns, (example) => {
        const refunds = refundsOf(example);
        const refunded = sum(refunds.map((each) => each.refund));
        expect(refunded).toBeLessThanOrEqual(example.charge);
        if (sum(example.returns) === example.sale) expect(refunded).toBe(example.charge);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves no return unpaid: after each, the card has its share of the returns so far, short of it by under a cent', () => {
    fc.assert(
      fc.property(saleAndReturns, (example) => {
        let refunded = 0;
        for (const { refund, returned } of refundsOf(example)) {
          expect(refund).toBeGreaterThanOrEqual(0);
          refunded += refund;
          // refunded ≤ charge × returned / sale < refunded + 1, in integers.
          expect(refunded * example.sale).toBeLessThanOrEqual(example.charge * returned);
          expect(example.charge * returned).toBeLessThan((refunded + 1) * example.sale);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('pays the probe its proportional amount: one-coin returns of a 3,000-coin sale charged 193 cents', () => {
    const oneByOne = refundsOf({ sale: 3_000, charge: 193, returns: Array.from({ length: 20 }, () => 1) });
    // 20 coins are worth 1.29 cents: one cent so far, the rest accrues.
    expect(sum(oneByOne.map((each) => each.refund))).toBe(1);
    expect(oneByOne.filter((each) => each.refund > 0)).toHaveLength(1);
    // Three returns of 1,000: the last takes the remainder, 193 in all (each alone rounds to 64).
    expect(refundsOf({ sale: 3_000, charge: 193, returns: [1_000, 1_000, 1_000] }).map((each) => each.refund)).toEqual([
      64, 64, 65,
    ]);
  });

  it('is exact at the largest amounts, where floating point would round', () => {
    const big = Number.MAX_SAFE_INTEGER;
    expect(cardRefundOf({ charge: big, sale: big, returnedBefore: 0, amount: big - 1 })).toBe(big - 1);
    expect(cardRefundOf({ charge: big, sale: big, returnedBefore: big - 1, amount: 1 })).toBe(1);
  });
});
