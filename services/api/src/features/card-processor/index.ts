export { APPROVED_CARD, DECLINED_CARD } from './cards.ts';
export { cardProcessorRoutes } from './routes.ts';
