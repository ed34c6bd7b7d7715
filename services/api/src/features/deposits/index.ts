export { depositsOf } from './deposit-list.ts';
export { depositRoutes, type DepositSettings, depositSettingsFrom } from './routes.ts';
