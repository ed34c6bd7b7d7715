/**
 * Where the bitcoin price comes from. The sandbox quotes a fixed price
 * (config BITCOIN_USD_RATE); a market feed implements the same call.
 */
export interface BitcoinPriceSource {
  /** The price of one bitcoin in US cents, a positive whole number. */
  usdCentsPerBitcoin(): Promise<number>;
}

export function fixedBitcoinPrice(usdCentsPerBitcoin: number): BitcoinPriceSource {
  if (!Number.isSafeInteger(usdCentsPerBitcoin) || usdCentsPerBitcoin <= 0)
    throw new RangeError(`bitcoin price ${usdCentsPerBitcoin} is not a positive number of cents`);
  return { usdCentsPerBitcoin: () => Promise.resolve(usdCentsPerBitcoin) };
}
