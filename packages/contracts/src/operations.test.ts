import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { correctBalanceForm, signedTypedToMinor } from './operations.ts';
import { minorUnitsPerUnit } from './payments.ts';
import { currencyCode } from './transactions.ts';

/** Minor units as an operator types them: sign, whole units, and the currency's decimals when it has any. */
function typed(minor: number, perUnit: number): string {
  const sign = minor < 0 ? '-' : '';
  const size = Math.abs(minor);
  if (perUnit === 1) return `${sign}${String(size)}`;
  const places = String(perUnit).length - 1;
  return `${sign}${String(Math.trunc(size / perUnit))}.${String(size % perUnit).padStart(places, '0')}`;
}

describe("the correction form's amount, typed in units of its currency", () => {
  it('reads back every signed amount in minor units, in every currency', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencyCode.options),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        (currency, minor) => {
          expect(signedTypedToMinor(typed(minor, minorUnitsPerUnit[currency]), currency)).toBe(minor);
        },
      ),
    );
  });

  it('is no number for text, or more decimals than the currency has', () => {
    expect(signedTypedToMinor('fifty', 'CAD')).toBeNaN();
    expect(signedTypedToMinor('1.505', 'CAD')).toBeNaN();
    expect(signedTypedToMinor('1.5', 'IMP')).toBeNaN();
    expect(signedTypedToMinor('−1.5', 'CAD')).toBe(-150);
    expect(signedTypedToMinor(' +.25 ', 'CON')).toBe(25);
  });

  it("refuses as the route does, in the route's words", () => {
    const refused = (value: Record<string, unknown>) =>
      correctBalanceForm.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(refused({ user_id: 7, currency: 'CAD', amount: '1.505', reason: 'Refund' })).toEqual([
      'amount: Invalid amount',
    ]);
    expect(refused({ user_id: 7, currency: 'CAD', amount: '', reason: 'Refund' })).toEqual([
      'amount: Please enter amount',
    ]);
    expect(correctBalanceForm.parse({ user_id: 7, currency: 'CAD', amount: '-1.50', reason: 'Refund' })).toEqual({
      user_id: 7,
      merchant_id: undefined,
      currency: 'CAD',
      amount: -150,
      reason: 'Refund',
    });
  });
});
