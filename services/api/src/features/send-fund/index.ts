export { sendFundRoutes } from './routes.ts';
