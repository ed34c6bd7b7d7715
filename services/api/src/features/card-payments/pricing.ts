import { ADD_FUND_LIMITS } from '@peeks/contracts';
import { coinsForCash, minorUnitsPerMajor, type Currency, type RateMicros } from '@peeks/ledger';

/**
 * The whole coins a purchase may name: those whose charge falls within Add
 * fund's 1 to 500 of the currency. The ledger mints floor(20 × cash × rate)
 * whole coins for a charge (spec §5, §9), so a charge of at most c buys at
 * least W coins exactly when coinsForCash(c) ≥ W, which gives both ends.
 */
export function purchasableCoins(currency: Currency, rateMicros: RateMicros): { min: number; max: number } {
  const perMajor = minorUnitsPerMajor[currency];
  const wholeCoins = (cash: number) => coinsForCash(cash, currency, rateMicros) / minorUnitsPerMajor.CON;
  return {
    min: wholeCoins(ADD_FUND_LIMITS.minMajor * perMajor - 1) + 1,
    max: wholeCoins(ADD_FUND_LIMITS.maxMajor * perMajor),
  };
}
