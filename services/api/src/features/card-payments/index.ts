export { cardFunding, chargeThenRecord, ownCard } from './charge.ts';
export { cardPaymentRoutes } from './routes.ts';
