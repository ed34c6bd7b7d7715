export { ledgerLogRoutes } from './routes.ts';
