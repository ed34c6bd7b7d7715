export { recoveryRoutes } from './routes.ts';
