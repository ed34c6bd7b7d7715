import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardRefundedBy, cardRefundOf } from './card-refunds.ts';

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
  let refundedBefore = 0;
  return returns.map((amount) => {
    const refund = cardRefundOf({ charge, sale, returnedBefore, refundedBefore, amount });
    returnedBefore += amount;
    refundedBefore += refund;
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
    expect(cardRefundOf({ charge: big, sale: big, returnedBefore: 0, refundedBefore: 0, amount: big - 1 })).toBe(
      big - 1,
    );
    expect(cardRefundOf({ charge: big, sale: big, returnedBefore: big - 1, refundedBefore: big - 1, amount: 1 })).toBe(
      1,
    );
  });

  it('stays within the charge and pays it all in the end, whatever returns the processor refuses, and when', () => {
    // Returns are asked for and the processor answers them later, in any order; a refused one ends failed and no
    // longer stands: the merchant may return its amount again, and its share is asked for again.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('return' as const), ask: fc.integer({ min: 1, max: 1_000_000 }) }),
      fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), refused: fc.boolean() }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(step, { maxLength: 60 }),
        (sale, charge, steps) => {
          type Return = { amount: number; refund: number; state: 'pending' | 'completed' | 'failed' };
          const returns: Return[] = [];
          const standing = () => returns.filter((each) => each.state !== 'failed');
          const returned = () => sum(standing().map((each) => each.amount));
          const asked = () => sum(standing().map((each) => each.refund));
          const returnOf = (ask: number) => {
            const amount = Math.min(ask, sale - returned());
            if (amount === 0) return;
            const refund = cardRefundOf({ charge, sale, returnedBefore: returned(), refundedBefore: asked(), amount });
            expect(refund).toBeGreaterThanOrEqual(0);
            returns.push({ amount, refund, state: refund > 0 ? 'pending' : 'completed' });
            // No return leaves the card short: it has been asked for its whole share of the standing returns.
            expect(asked()).toBeGreaterThanOrEqual(cardRefundedBy(charge, sale, returned()));
          };
          for (const each of steps) {
            if (each.kind === 'return') returnOf(each.ask);
            else {
              const pending = returns.filter((entry) => entry.state === 'pending');
              const answered = pending[each.pick % Math.max(pending.length, 1)];
              if (answered) answered.state = each.refused ? 'failed' : 'completed';
            }
            // Never more asked of the processor than the charge, so it never refuses for that.
            expect(asked()).toBeLessThanOrEqual(charge);
          }
          // The processor pays what is pending, and the merchant returns the rest: the card has all of its charge.
          returnOf(sale);
          for (const entry of returns) if (entry.state === 'pending') entry.state = 'completed';
          expect(returned()).toBe(sale);
          expect(sum(returns.filter((each) => each.state === 'completed').map((each) => each.refund))).toBe(charge);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
