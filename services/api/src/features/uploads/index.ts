export { uploadRoutes } from './routes.ts';
