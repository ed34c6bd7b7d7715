export { profileRoutes } from './routes.ts';
