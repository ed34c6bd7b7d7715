export { cartPaidBy } from './queries.ts';
export { checkoutRoutes } from './routes.ts';
