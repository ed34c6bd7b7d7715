import { describe, expect, it } from 'vitest';
import { sendFundRequest, transferAmountForm, typedToMinor } from './payments.ts';

const firstMessage = (value: unknown) => {
  const result = transferAmountForm.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe("the Transfer fund page's amount (spec §5: 1 to 10 characters, above 0, up to 500)", () => {
  it('speaks the texts of §5 Amounts', () => {
    expect(firstMessage({ amount: '', currency: 'USD' })).toBe('Please enter amount');
    expect(firstMessage({ amount: '   ', currency: 'USD' })).toBe('Please enter amount');
    expect(firstMessage({ amount: '12345678901', currency: 'USD' })).toBe('Please enter at most 10 characters amount');
    expect(firstMessage({ amount: '12a', currency: 'USD' })).toBe('Please enter valid amount');
    expect(firstMessage({ amount: '0', currency: 'USD' })).toBe('Please enter amount should be greater than 0');
    expect(firstMessage({ amount: '500.01', currency: 'USD' })).toBe('Please enter amount should be less than 500');
    expect(firstMessage({ amount: '1.234', currency: 'USD' })).toBe('Please enter valid amount');
    expect(firstMessage({ amount: '1.5', currency: 'IMP' })).toBe('Please enter valid amount');
    expect(firstMessage({ amount: '5', currency: '' })).toBe('Please select Currency');
  });

  it('gives send-fund minor units of the chosen currency, which send-fund accepts', () => {
    expect(transferAmountForm.parse({ amount: ' 12.5 ', currency: 'CON' })).toEqual({ amount: 1250, currency: 'CON' });
    expect(transferAmountForm.parse({ amount: '500', currency: 'USD' })).toEqual({ amount: 50_000, currency: 'USD' });
    expect(transferAmountForm.parse({ amount: '.05', currency: 'CAD' })).toEqual({ amount: 5, currency: 'CAD' });
    expect(transferAmountForm.parse({ amount: '7', currency: 'IMP' })).toEqual({ amount: 7, currency: 'IMP' });
    const { amount, currency } = transferAmountForm.parse({ amount: '500', currency: 'CAD' });
    expect(
      sendFundRequest.safeParse({ guser_id: '0b8f5a56-4f63-4a53-9d0c-9b4a1c1f2e11', amount, currency }).success,
    ).toBe(true);
  });

  it('reads typed amounts in whole-number arithmetic', () => {
    expect(typedToMinor('0.29', 'USD')).toBe(29);
    expect(typedToMinor('1.1', 'USD')).toBe(110);
    expect(typedToMinor('3.', 'CON')).toBe(300);
    expect(typedToMinor('1.001', 'USD')).toBeNull();
  });
});
