import { SATOSHIS_PER_BITCOIN, type BitcoinQuote } from '@peeks/contracts';
import { coinsForCash, type RateMicros } from '@peeks/ledger';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a quote may be turned into a deposit (spec: a quote hash valid for a short time). */
export const QUOTE_LIFETIME_MS = 15 * 60_000;

/** What a quote is made from: the amount, the bitcoin price and the coin rate now. */
export interface QuoteTerms {
  usdCents: number;
  usdCentsPerBitcoin: number;
  rateMicros: RateMicros;
}

/** Bitcoin due for a US-cent amount, in satoshis, rounded up so the platform is never paid short. */
export function satoshisFor(usdCents: number, usdCentsPerBitcoin: number): number {
  const numerator = BigInt(usdCents) * BigInt(SATOSHIS_PER_BITCOIN);
  const price = BigInt(usdCentsPerBitcoin);
  return Number((numerator + price - 1n) / price);
}

/**
 * The quote's figures and its `hash`: `<expiry in unix seconds>.<HMAC>`, the
 * HMAC-SHA256 under the server's secret of every figure, the expiry and the
 * user it was made for. The client sends it back unchanged; any change to a
 * figure, the expiry or the user breaks it.
 */
export function signQuote(
  terms: QuoteTerms,
  userId: number,
  secret: Buffer,
  now: Date,
): BitcoinQuote & { expiresAt: string } {
  const figures = {
    USDAmount: terms.usdCents,
    BTCtoUSD: terms.usdCentsPerBitcoin,
    totalBitcoinAmount: satoshisFor(terms.usdCents, terms.usdCentsPerBitcoin),
    peeksCoins: coinsForCash(terms.usdCents, 'USD', terms.rateMicros),
  };
  const expiresAt = Math.floor((now.getTime() + QUOTE_LIFETIME_MS) / 1000);
  return {
    ...figures,
    hash: `${expiresAt}.${mac(figures, expiresAt, userId, secret).toString('base64url')}`,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

export type QuoteCheck = { valid: true; expiresAt: Date } | { valid: false; reason: 'tampered' | 'expired' };

/** Whether the quote is one this server signed for this user, unchanged, and not yet expired. */
export function checkQuote(quote: BitcoinQuote, userId: number, secret: Buffer, now: Date): QuoteCheck {
  const [expiry = '', signature = ''] = quote.hash.split('.');
  const expiresAt = Number(expiry);
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(quote, expiresAt, userId, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { valid: false, reason: 'tampered' };
  if (now.getTime() >= expiresAt * 1000) return { valid: false, reason: 'expired' };
  return { valid: true, expiresAt: new Date(expiresAt * 1000) };
}

function mac(figures: Omit<BitcoinQuote, 'hash'>, expiresAt: number, userId: number, secret: Buffer): Buffer {
  const message = [
    'bitcoin-quote/1',
    userId,
    figures.USDAmount,
    figures.BTCtoUSD,
    figures.totalBitcoinAmount,
    figures.peeksCoins,
    expiresAt,
  ].join('|');
  return createHmac('sha256', secret).update(message).digest();
}
