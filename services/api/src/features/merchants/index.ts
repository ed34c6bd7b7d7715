export { type ActingMerchant, actingMerchant, onlyOwn } from './acting-merchant.ts';
export { merchantRoutes } from './routes.ts';
