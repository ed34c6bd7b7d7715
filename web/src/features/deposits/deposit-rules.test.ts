import { describe, expect, it } from 'vitest';
import {
  bitcoinUri,
  coinEquivalent,
  coinsLabel,
  countdownText,
  readBitcoinUri,
  timeLeft,
  typedWholeUnits,
} from './deposit-rules.ts';

const ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

describe('the coin equivalent floor(20 × amount × rate) (spec §5)', () => {
  it.each([
    [1, 780_000, 15],
    [50, 780_000, 780],
    [500, 780_000, 7_800],
    [3, 780_000, 46],
    [7, 1_000_000, 140],
    [1, 1, 0],
  ])('%i units at %i millionths is %i coins', (amount, rate, coins) => {
    expect(coinEquivalent(amount, rate)).toBe(coins);
  });

  it('is 0 for nothing typed, or anything that is not a whole amount', () => {
    expect(coinEquivalent(0, 780_000)).toBe(0);
    expect(coinEquivalent(2.5, 780_000)).toBe(0);
    expect(typedWholeUnits('')).toBe(0);
    expect(typedWholeUnits('12a')).toBe(0);
    expect(typedWholeUnits(' 25 ')).toBe(25);
  });

  it("says 'N Coin' for one and 'N Coins' otherwise", () => {
    expect(coinsLabel(0)).toBe('0 Coins');
    expect(coinsLabel(1)).toBe('1 Coin');
    expect(coinsLabel(780)).toBe('780 Coins');
  });
});

describe('the BIP21 URI of a deposit address', () => {
  it('asks for the amount in bitcoin with 8 places, as the server writes it', () => {
    expect(bitcoinUri(ADDRESS, 500_000)).toBe(`bitcoin:${ADDRESS}?amount=0.00500000`);
    expect(bitcoinUri(ADDRESS, 123_456_789)).toBe(`bitcoin:${ADDRESS}?amount=1.23456789`);
  });

  it('reads back to the same address and satoshis', () => {
    for (const sats of [1, 769_231, 100_000_000, 2_100_000_000_000])
      expect(readBitcoinUri(bitcoinUri(ADDRESS, sats))).toEqual({ address: ADDRESS, sats });
    expect(readBitcoinUri(`bitcoin:${ADDRESS}?amount=0.5`)).toEqual({ address: ADDRESS, sats: 50_000_000 });
    expect(readBitcoinUri('https://example.com')).toBeNull();
    expect(readBitcoinUri(`bitcoin:${ADDRESS}?amount=1e-3`)).toBeNull();
  });
});

describe('the 24-hour countdown', () => {
  const now = new Date('2026-11-25T18:00:00Z');
  it('counts hours, minutes and seconds down to zero, and then says expired', () => {
    expect(countdownText(timeLeft(new Date('2026-11-26T18:00:00Z'), now))).toBe('24:00:00');
    expect(countdownText(timeLeft(new Date('2026-11-26T17:59:59.900Z'), now))).toBe('23:59:59');
    expect(timeLeft(new Date('2026-11-25T18:01:05Z'), now)).toEqual({
      hours: 0,
      minutes: 1,
      seconds: 5,
      expired: false,
    });
    expect(timeLeft(new Date('2026-11-25T17:00:00Z'), now)).toEqual({
      hours: 0,
      minutes: 0,
      seconds: 0,
      expired: true,
    });
    expect(countdownText(timeLeft(now, now))).toBe('00:00:00');
  });
});
