import { describe, expect, it } from 'vitest';
import { amountMessages } from './amount-messages.ts';
import { coinCountLabel, formatBitcoin, wholeAmount } from './deposits.ts';

const firstMessage = (schema: ReturnType<typeof wholeAmount>, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the amount field of the deposit forms', () => {
  it('speaks every text of §5 Amounts, the character rules counting digits as typed', () => {
    const rule = wholeAmount({ minChars: 2, maxChars: 3, min: 10, max: 500 });
    expect(firstMessage(rule, undefined)).toBe('Please enter amount');
    expect(firstMessage(rule, 7)).toBe('Please enter at least 2 characters amount');
    expect(firstMessage(rule, 1000)).toBe('Please enter at most 3 characters amount');
    expect(firstMessage(rule, 501)).toBe('Please enter amount should be less than 500');
    expect(firstMessage(rule, 10)).toBeNull();
    expect(firstMessage(wholeAmount({ minChars: 1, maxChars: 3, min: 10, max: 500 }), 9)).toBe(
      'Please enter amount should be greater than 10',
    );
    expect(firstMessage(rule, 12.5)).toBe(amountMessages.invalid());
  });
});

describe('display helpers', () => {
  it("shows coins as 'N Coin' or 'N Coins' from hundredths", () => {
    expect(coinCountLabel(100)).toBe('1 Coin');
    expect(coinCountLabel(199)).toBe('1 Coin');
    expect(coinCountLabel(0)).toBe('0 Coins');
    expect(coinCountLabel(78_000)).toBe('780 Coins');
  });

  it('writes satoshis as BTC with eight places, exactly', () => {
    expect(formatBitcoin(500_000)).toBe('0.00500000');
    expect(formatBitcoin(1)).toBe('0.00000001');
    expect(formatBitcoin(2_100_000_000_000_000)).toBe('21000000.00000000');
    expect(formatBitcoin(123_456_789)).toBe('1.23456789');
  });
});
