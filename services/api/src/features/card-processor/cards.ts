import { randomBytes } from 'node:crypto';

/**
 * What the sandbox processor derives from a card number. Its tokens keep the
 * first six and last four digits, as real processors' format-preserving
 * tokens do, so the spec's prefix rule can read a token; the middle is
 * random, so a token does not give the number back.
 */
export function brandOf(cardNumber: string): string {
  if (cardNumber.startsWith('4')) return 'visa';
  const two = Number(cardNumber.slice(0, 2));
  const four = Number(cardNumber.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (cardNumber.startsWith('6011') || two === 65) return 'discover';
  return 'unknown';
}

/** The last four digits behind stars, the way the card list shows a card. */
export const maskOf = (cardNumber: string) => `************${cardNumber.slice(-4)}`;

const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function newToken(cardNumber: string): string {
  const middle = [...randomBytes(16)].map((byte) => TOKEN_ALPHABET[byte % TOKEN_ALPHABET.length]).join('');
  return `${cardNumber.slice(0, 6)}${middle}${cardNumber.slice(-4)}`;
}

/** The sandbox's test cards (platform.md §6): this one is declined, every other valid card approved. */
export const DECLINED_CARD = '4000000000000002';
export const APPROVED_CARD = '4242424242424242';
