export { buildApp, ownAddress, type AppOptions } from './app.ts';
export { createDemoData, demoBusiness, describeDemoAccounts, type DemoAccount } from './demo-data.ts';
export { depositSettingsFrom } from './features/deposits/index.ts';
export { configuredRates, type ExchangeRateSource } from './features/pricing/index.ts';
export { WEB_DIST } from './plugins/web-app.ts';
export { serveSandboxProcessor } from '@peeks/runtime';
