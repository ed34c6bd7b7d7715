export { type LiveOptions, liveRoutes } from './live-routes.ts';
export { walletRoutes } from './routes.ts';
