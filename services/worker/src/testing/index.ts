export { startFakeEsplora, type FakeEsplora } from './fake-esplora.ts';
export { newMerchant, newSecret, newWebhook, startReceiver, type Receiver } from './webhooks.ts';
