import { platformAccount, type AccountId } from './accounts.ts';
import type { Posting } from './events.ts';
import type { LedgerType } from './words.ts';
import type { Currency } from './money.ts';

/** One side of a conversion: the account that gives or receives, and how much of which currency. */
export type ConversionSide = { account: AccountId; amount: number; currency: Currency };

/**
 * A conversion between two currencies as two balanced legs, one per
 * currency, through the platform's exchange account of each: the payer's
 * side pays `from` into the exchange account of its currency, and the
 * exchange account of the other currency pays `to` out. Each currency's
 * postings sum to zero on their own; the exchange accounts' balances are
 * the platform's position in each currency.
 */
export function conversionLegs(from: ConversionSide, to: ConversionSide, type: LedgerType): Posting[] {
  return [...intoExchange(from, type), ...outOfExchange(to, type)];
}

/** A conversion's first leg: `from` pays into the exchange account of its currency. */
export function intoExchange(from: ConversionSide, type: LedgerType): Posting[] {
  return [
    { account: from.account, currency: from.currency, amount: -from.amount, type },
    { account: platformAccount('exchange', from.currency), currency: from.currency, amount: from.amount, type },
  ];
}

/** A conversion's second leg: the exchange account of `to`'s currency pays it. */
export function outOfExchange(to: ConversionSide, type: LedgerType): Posting[] {
  return [
    { account: platformAccount('exchange', to.currency), currency: to.currency, amount: -to.amount, type },
    { account: to.account, currency: to.currency, amount: to.amount, type },
  ];
}
