export { coinPriceFor, payFromCoins, type CoinPrice } from './cash-prices.ts';
export { fundingView, methodLabel } from './funding.ts';
export { quoteForCommand, quoteView, type StoredQuote } from './quotes.ts';
export { configuredRates, type ExchangeRateSource, rateInForce } from './rates.ts';
export { pricingRoutes } from './routes.ts';
