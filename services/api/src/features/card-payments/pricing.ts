import { ADD_FUND_LIMITS } from '@peeks/contracts';
import { cashPriceOfCoins, coinsForCash, minorUnitsPerMajor, type Currency, type RateMicros } from '@peeks/ledger';

/**
 * What a card is charged for coins. The ledger mints floor(20 × cash × rate)
 * whole coins for a charge (spec §5, §9); a purchase names the coins, so the
 * charge is the smallest amount of cash that buys them: the fraction of a
 * cent is rounded up, in the platform's favour. At rates below 5 that charge
 * buys exactly the coins asked for (one cent more buys under 20 × 0.05 = 1
 * coin more); the result is checked anyway.
 *
 * `coinAmt` is in hundredths of a coin and a whole number of coins.
 */
export function chargeForCoins(coinAmt: number, currency: Currency, rateMicros: RateMicros): number {
  const charge = cashPriceOfCoins(coinAmt, currency, rateMicros);
  if (coinsForCash(charge, currency, rateMicros) !== coinAmt)
    throw new RangeError(`no charge in ${currency} buys exactly ${coinAmt} coin hundredths at ${rateMicros}`);
  return charge;
}

/**
 * The whole coins a purchase may name: those whose charge falls within Add
 * fund's 1 to 500 of the currency. A charge of at most c buys at least W
 * coins exactly when coinsForCash(c) ≥ W, which gives both ends.
 */
export function purchasableCoins(currency: Currency, rateMicros: RateMicros): { min: number; max: number } {
  const perMajor = minorUnitsPerMajor[currency];
  const wholeCoins = (cash: number) => coinsForCash(cash, currency, rateMicros) / minorUnitsPerMajor.CON;
  return {
    min: wholeCoins(ADD_FUND_LIMITS.minMajor * perMajor - 1) + 1,
    max: wholeCoins(ADD_FUND_LIMITS.maxMajor * perMajor),
  };
}
