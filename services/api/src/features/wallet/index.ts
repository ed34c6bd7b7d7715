export { type LiveOptions, liveRoutes } from './live-routes.ts';
export { findTransaction } from './queries.ts';
export { walletRoutes } from './routes.ts';
