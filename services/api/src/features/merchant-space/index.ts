export { merchantSpaceRoutes } from './routes.ts';
