import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkQuote, QUOTE_LIFETIME_MS, satoshisFor, signQuote } from './quote.ts';

const secret = randomBytes(32);
const now = new Date('2030-03-01T12:00:00Z');
const terms = { usdCents: 25_000, usdCentsPerBitcoin: 6_500_000, rateMicros: DEFAULT_RATE_MICROS };

describe('bitcoin quotes', () => {
  it('prices in whole numbers: satoshis rounded up, coins at floor(20 × amount × rate)', () => {
    expect(satoshisFor(25_000, 6_500_000)).toBe(384_616); // 250 / 65000 BTC = 0.0038461538…
    expect(satoshisFor(6_500_000, 6_500_000)).toBe(100_000_000);
    expect(satoshisFor(100, 3)).toBe(3_333_333_334);
    const quote = signQuote(terms, 7, secret, now);
    expect(quote).toMatchObject({
      USDAmount: 25_000,
      BTCtoUSD: 6_500_000,
      totalBitcoinAmount: 384_616,
      peeksCoins: 3900 * 100,
    });
    expect(quote.expiresAt).toBe(new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString());
  });

  it('accepts its own quote for its user until it expires', () => {
    const quote = signQuote(terms, 7, secret, now);
    expect(checkQuote(quote, 7, secret, new Date(now.getTime() + QUOTE_LIFETIME_MS - 1000))).toEqual({
      valid: true,
      expiresAt: new Date(quote.expiresAt),
    });
    expect(checkQuote(quote, 7, secret, new Date(now.getTime() + QUOTE_LIFETIME_MS))).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('refuses any changed figure, a pushed-back expiry, another user and another secret', () => {
    const quote = signQuote(terms, 7, secret, now);
    const [expiry, signature] = quote.hash.split('.');
    const tampered = [
      { ...quote, USDAmount: quote.USDAmount + 1 },
      { ...quote, BTCtoUSD: quote.BTCtoUSD + 1 },
      { ...quote, totalBitcoinAmount: quote.totalBitcoinAmount - 1 },
      { ...quote, peeksCoins: quote.peeksCoins + 100 },
      { ...quote, hash: `${Number(expiry) + 3600}.${signature ?? ''}` },
      { ...quote, hash: `${expiry ?? ''}.${'A'.repeat(43)}` },
    ];
    for (const changed of tampered)
      expect(checkQuote(changed, 7, secret, now)).toEqual({ valid: false, reason: 'tampered' });
    expect(checkQuote(quote, 8, secret, now)).toEqual({ valid: false, reason: 'tampered' });
    expect(checkQuote(quote, 7, randomBytes(32), now)).toEqual({ valid: false, reason: 'tampered' });
  });
});
