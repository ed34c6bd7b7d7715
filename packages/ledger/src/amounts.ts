import { refuse } from './errors.ts';
import { minorUnitsPerMajor, type Currency } from './money.ts';

/** Per-transaction limits, in major units of the amount's currency (spec §5 "Amounts", §9). */
export interface AmountLimit {
  minMajor: number | null;
  maxMajor: number | null;
}

export const amountLimits = {
  /** Transfer fund: up to 500; the smallest unit is allowed. */
  transfer: { minMajor: null, maxMajor: 500 },
  /** Add fund (purchase, card deposit), bitcoin and e-mail transfer deposits: 1 to 500. */
  funding: { minMajor: 1, maxMajor: 500 },
  /** Operator and system movements (withdraw, settlement, fee, correction): positive, no cap. */
  unlimited: { minMajor: null, maxMajor: null },
} as const satisfies Record<string, AmountLimit>;

/** Refuses an amount that is not a positive whole number of minor units within `limit`. */
export function checkAmount(amount: number, currency: Currency, limit: AmountLimit, what = 'amount'): void {
  if (!Number.isSafeInteger(amount))
    refuse('invalid_amount', `${what} ${String(amount)} is not a whole number of minor units`);
  if (amount <= 0) refuse('amount_not_positive', `${what} ${amount} is not positive`);
  const perMajor = minorUnitsPerMajor[currency];
  if (limit.minMajor !== null && amount < limit.minMajor * perMajor) {
    refuse('amount_below_minimum', `${what} ${amount} ${currency} minor units is below ${limit.minMajor}`);
  }
  if (limit.maxMajor !== null && amount > limit.maxMajor * perMajor) {
    refuse('amount_above_limit', `${what} ${amount} ${currency} minor units is above ${limit.maxMajor}`);
  }
}

/** An exchange rate as a whole number of millionths (0.78 is 780000), so no float touches money. */
export type RateMicros = number;
export const RATE_SCALE = 1_000_000;
/** Coins per unit of the reference currency, the US dollar (spec §9). */
export const COINS_PER_UNIT = 20;
/** The default rate of the Canadian dollar to the US dollar (spec §9: 0.78); the dollar's own is RATE_SCALE. */
export const DEFAULT_RATE_MICROS: RateMicros = 780_000;

/**
 * Coins bought for a cash amount: floor(20 × amount × rate) whole coins
 * (spec §5, §9), where `rateMicros` is the currency's rate to the US
 * dollar (RATE_SCALE for the dollar itself), returned in CON minor units
 * (hundredths of a coin).
 */
export function coinsForCash(amount: number, currency: Currency, rateMicros: RateMicros): number {
  if (!Number.isSafeInteger(rateMicros) || rateMicros <= 0)
    refuse('invalid_amount', `rate ${String(rateMicros)} is not a positive number of millionths`);
  const wholeCoins =
    (BigInt(COINS_PER_UNIT) * BigInt(amount) * BigInt(rateMicros)) /
    (BigInt(minorUnitsPerMajor[currency]) * BigInt(RATE_SCALE));
  return Number(wholeCoins) * minorUnitsPerMajor.CON;
}

/**
 * The least cash in `currency` (minor units) that pays for `coins` CON minor
 * units at the rate: the fraction of a cent is rounded up, in the
 * platform's favour. The inverse of `coinsForCash` for whole coins.
 */
export function cashPriceOfCoins(coins: number, currency: Currency, rateMicros: RateMicros): number {
  if (!Number.isSafeInteger(rateMicros) || rateMicros <= 0)
    refuse('invalid_amount', `rate ${String(rateMicros)} is not a positive number of millionths`);
  const numerator = BigInt(coins) * BigInt(minorUnitsPerMajor[currency]) * BigInt(RATE_SCALE);
  const denominator = BigInt(COINS_PER_UNIT) * BigInt(minorUnitsPerMajor.CON) * BigInt(rateMicros);
  return Number((numerator + denominator - 1n) / denominator);
}

/** Cash in `currency` (minor units) that `coins` CON minor units sell for at the rate: rounded down to the cent. */
export function cashForCoins(coins: number, currency: Currency, rateMicros: RateMicros): number {
  if (!Number.isSafeInteger(rateMicros) || rateMicros <= 0)
    refuse('invalid_amount', `rate ${String(rateMicros)} is not a positive number of millionths`);
  const numerator = BigInt(coins) * BigInt(minorUnitsPerMajor[currency]) * BigInt(RATE_SCALE);
  const denominator = BigInt(COINS_PER_UNIT) * BigInt(minorUnitsPerMajor.CON) * BigInt(rateMicros);
  return Number(numerator / denominator);
}
