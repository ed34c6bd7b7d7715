import {
  COINS_PER_UNIT,
  RATE_SCALE,
  cashForCoins,
  cashPriceOfCoins,
  coinsForCash,
  minorUnitsPerMajor,
  type RateMicros,
} from '@peeks/ledger';

/**
 * The price list's pure rules. Coins are priced in one reference currency,
 * 20 coins per US dollar (spec §9); another currency converts at its
 * exchange rate to the dollar (`rateMicros`, millionths of a dollar per
 * unit): at 0.78 a Canadian dollar buys 15.6 coins. Every rounding is in
 * the platform's favour: cash buys whole coins rounded down, coins are sold
 * for cash rounded down to the cent, and an amount asked for is priced at
 * the least that pays for it.
 */

/** The currencies coins are priced in; the US dollar is the reference. */
export type CashCurrency = 'USD' | 'CAD';

/** The exchange rates to the reference currency, in millionths: the dollar's own is 1. */
export type ExchangeRates = Readonly<Record<Exclude<CashCurrency, 'USD'>, RateMicros>>;

export function rateOf(currency: CashCurrency, rates: ExchangeRates): RateMicros {
  return currency === 'USD' ? RATE_SCALE : rates[currency];
}

/** Millionths of a coin that one unit of `currency` buys: 20 000 000 for a dollar, 15 600 000 for CAD at 0.78. */
export function coinMicrosPerUnit(rateMicros: RateMicros): number {
  return COINS_PER_UNIT * rateMicros;
}

/** The same as a decimal text with no float in between: 15600000 reads "15.6". */
export function rateText(micros: number): string {
  const whole = Math.trunc(micros / RATE_SCALE);
  const fraction = String(micros % RATE_SCALE)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/** Cash for coins (a withdrawal, a cash price paid from coins): rounded down to the cent, as the ledger checks it. */
export { cashForCoins };

/** The fewest coins (hundredths) that sell for at least `cash`: the inverse of cashForCoins. */
export function coinsForCashOut(cash: number, currency: CashCurrency, rateMicros: RateMicros): number {
  const numerator = BigInt(cash) * BigInt(COINS_PER_UNIT) * BigInt(minorUnitsPerMajor.CON) * BigInt(rateMicros);
  const denominator = BigInt(minorUnitsPerMajor[currency]) * BigInt(RATE_SCALE);
  return Number((numerator + denominator - 1n) / denominator);
}

/** One side of a conversion: the person gives `amount_in` of one currency, or wants `amount_out` of the other. */
export type QuoteAsk =
  | { from: CashCurrency; to: 'CON'; amountIn: number }
  | { from: CashCurrency; to: 'CON'; amountOut: number }
  | { from: 'CON'; to: CashCurrency; amountIn: number }
  | { from: 'CON'; to: CashCurrency; amountOut: number };

export interface QuoteTerms {
  amountIn: number;
  amountOut: number;
  fee: number;
}

/** Why an ask has no price: it buys nothing, or asks for part of a coin. */
export type Unpriceable = { unpriceable: 'nothing' | 'whole-coins' };

/**
 * The terms of a conversion at a rate. Buying coins, the coins are whole
 * (the ledger mints whole coins for cash): cash in buys floor(20 × cash ×
 * rate) coins; coins out cost the least cash that buys exactly them.
 * Selling coins, coins in give cash rounded down; cash out costs the fewest
 * coins that give at least it. No fee today.
 */
export function termsOf(ask: QuoteAsk, rateMicros: RateMicros): QuoteTerms | Unpriceable {
  const fee = 0;
  if (ask.to === 'CON') {
    if ('amountIn' in ask) {
      const coins = coinsForCash(ask.amountIn, ask.from, rateMicros);
      return coins > 0 ? { amountIn: ask.amountIn, amountOut: coins, fee } : { unpriceable: 'nothing' };
    }
    if (ask.amountOut % minorUnitsPerMajor.CON !== 0) return { unpriceable: 'whole-coins' };
    return { amountIn: cashPriceOfCoins(ask.amountOut, ask.from, rateMicros), amountOut: ask.amountOut, fee };
  }
  if ('amountIn' in ask) {
    const cash = cashForCoins(ask.amountIn, ask.to, rateMicros);
    return cash > 0 ? { amountIn: ask.amountIn, amountOut: cash, fee } : { unpriceable: 'nothing' };
  }
  return { amountIn: coinsForCashOut(ask.amountOut, ask.to, rateMicros), amountOut: ask.amountOut, fee };
}
