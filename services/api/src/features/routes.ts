import type { ResolveHost } from '@peeks/jobs';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './accounts/index.ts';
import { addressRoutes } from './addresses/index.ts';
import { agreementRoutes } from './agreements/index.ts';
import { cardPaymentRoutes } from './card-payments/index.ts';
import { cardProcessorRoutes } from './card-processor/index.ts';
import { checkoutRoutes } from './checkout/index.ts';
import { contactRoutes } from './contacts/index.ts';
import { credentialRoutes } from './credentials/index.ts';
import { depositRoutes, type DepositSettings } from './deposits/index.ts';
import { healthRoutes } from './health/index.ts';
import { ledgerLogRoutes } from './ledger-log/index.ts';
import { merchantSpaceRoutes } from './merchant-space/index.ts';
import { merchantRoutes } from './merchants/index.ts';
import { operationRoutes, type CorrectionLimits } from './operations/index.ts';
import { paymentMethodRoutes } from './payment-methods/index.ts';
import { pricingRoutes } from './pricing/index.ts';
import { profileRoutes } from './profile/index.ts';
import { recoveryRoutes } from './recovery/index.ts';
import { sendFundRoutes } from './send-fund/index.ts';
import { sessionRoutes } from './sessions/index.ts';
import { uploadRoutes } from './uploads/index.ts';
import { userRoutes } from './users/index.ts';
import { liveRoutes, walletRoutes, type LiveOptions } from './wallet/index.ts';
import { webhookRoutes } from './webhooks/index.ts';

/** What the features take from the app's options, each already defaulted. */
export interface FeatureSettings {
  live: LiveOptions;
  /** The sandbox card processor's credential, or null when its routes are not served. */
  sandboxProcessorCredential: string | null;
  deposits: DepositSettings;
  outboxBodies: boolean;
  corrections: CorrectionLimits;
  /** The ledger log's verifier key, or null when its /api/ledger/* routes are not served. */
  ledgerLogKey: string | null;
  settlementCron: string;
  webhooks: { allowPrivate: boolean; resolve: ResolveHost };
}

/** One feature: its name, and how it registers with the settings it takes. */
export interface Feature {
  name: string;
  register: (app: FastifyInstance, settings: FeatureSettings) => PromiseLike<unknown>;
}

/**
 * Every API feature, each a plugin of its own: the one list a new feature
 * joins (its routes describe themselves: see openapi/route-operation.ts).
 * Registered in this order after the platform's plugins
 * (plugins/platform.ts: sessions, CSRF, access, ledger, rate limits), whose
 * decorations and hooks every feature relies on; app.ts names no feature.
 * No feature decorates the app for another, so one more level of
 * encapsulation around them all changes nothing.
 */
export const features: readonly Feature[] = [
  { name: 'health', register: (app) => app.register(healthRoutes) },
  { name: 'accounts', register: (app) => app.register(accountRoutes) },
  { name: 'sessions', register: (app) => app.register(sessionRoutes) },
  { name: 'recovery', register: (app) => app.register(recoveryRoutes) },
  { name: 'profile', register: (app) => app.register(profileRoutes) },
  { name: 'credentials', register: (app) => app.register(credentialRoutes) },
  { name: 'uploads', register: (app) => app.register(uploadRoutes) },
  { name: 'addresses', register: (app) => app.register(addressRoutes) },
  { name: 'contacts', register: (app) => app.register(contactRoutes) },
  { name: 'users', register: (app) => app.register(userRoutes) },
  { name: 'merchants', register: (app) => app.register(merchantRoutes) },
  { name: 'wallet', register: (app) => app.register(walletRoutes) },
  {
    name: 'ledger-log',
    register: async (app, settings) => {
      if (settings.ledgerLogKey !== null) await app.register(ledgerLogRoutes, { vkey: settings.ledgerLogKey });
    },
  },
  { name: 'live', register: (app, settings) => app.register(liveRoutes, settings.live) },
  { name: 'agreements', register: (app) => app.register(agreementRoutes) },
  {
    name: 'card-processor',
    register: async (app, settings) => {
      if (settings.sandboxProcessorCredential !== null)
        await app.register(cardProcessorRoutes, { credential: settings.sandboxProcessorCredential });
    },
  },
  { name: 'payment-methods', register: (app) => app.register(paymentMethodRoutes) },
  { name: 'pricing', register: (app) => app.register(pricingRoutes) },
  { name: 'card-payments', register: (app) => app.register(cardPaymentRoutes) },
  { name: 'deposits', register: (app, settings) => app.register(depositRoutes, settings.deposits) },
  {
    name: 'operations',
    register: (app, settings) =>
      app.register(operationRoutes, {
        bitcoinNetwork: settings.deposits.bitcoin.network,
        outboxBodies: settings.outboxBodies,
        corrections: settings.corrections,
        ledgerLogKey: settings.ledgerLogKey ?? undefined,
      }),
  },
  { name: 'send-fund', register: (app) => app.register(sendFundRoutes) },
  { name: 'checkout', register: (app) => app.register(checkoutRoutes) },
  {
    name: 'merchant-space',
    register: (app, settings) => app.register(merchantSpaceRoutes, { settlementCron: settings.settlementCron }),
  },
  { name: 'webhooks', register: (app, settings) => app.register(webhookRoutes, settings.webhooks) },
];

/** A plugin that registers the given features in order, in a context of their own. */
export const featuresPlugin =
  (list: readonly Feature[]): FastifyPluginAsync<FeatureSettings> =>
  async (app, settings) => {
    for (const feature of list) await feature.register(app, settings);
  };

/** Every feature of `features`: what app.ts registers. */
export const apiFeatures = featuresPlugin(features);
