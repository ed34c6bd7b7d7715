export { cardTokenOf, findPaymentMethod, notFound } from './queries.ts';
export { paymentMethodRoutes } from './routes.ts';
