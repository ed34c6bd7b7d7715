import type { ResolveHost } from '@peeks/jobs';
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './accounts/routes.ts';
import { addressRoutes } from './addresses/routes.ts';
import { agreementRoutes } from './agreements/routes.ts';
import { cardPaymentRoutes } from './card-payments/routes.ts';
import { cardProcessorRoutes } from './card-processor/routes.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { contactRoutes } from './contacts/routes.ts';
import { credentialRoutes } from './credentials/routes.ts';
import { depositRoutes, type DepositSettings } from './deposits/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { ledgerLogRoutes } from './ledger-log/routes.ts';
import { merchantSpaceRoutes } from './merchant-space/routes.ts';
import { merchantRoutes } from './merchants/routes.ts';
import type { CorrectionLimits } from './operations/corrections.ts';
import { operationRoutes } from './operations/routes.ts';
import { paymentMethodRoutes } from './payment-methods/routes.ts';
import { pricingRoutes } from './pricing/routes.ts';
import { profileRoutes } from './profile/routes.ts';
import { recoveryRoutes } from './recovery/routes.ts';
import { sendFundRoutes } from './send-fund/routes.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { userRoutes } from './users/routes.ts';
import { liveRoutes, type LiveOptions } from './wallet/live-routes.ts';
import { walletRoutes } from './wallet/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';

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

/**
 * Every API feature, each a plugin of its own: the one list a new feature
 * joins (its routes describe themselves: see openapi/route-operation.ts).
 * Registered after the platform's plugins (sessions, CSRF, access, ledger,
 * rate limits), whose decorations and hooks every feature relies on. No
 * feature decorates the app for another, so one more level of
 * encapsulation around them all changes nothing.
 */
export const apiFeatures: FastifyPluginAsync<FeatureSettings> = async (app, settings) => {
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(sessionRoutes);
  await app.register(recoveryRoutes);
  await app.register(profileRoutes);
  await app.register(credentialRoutes);
  await app.register(uploadRoutes);
  await app.register(addressRoutes);
  await app.register(contactRoutes);
  await app.register(userRoutes);
  await app.register(merchantRoutes);
  await app.register(walletRoutes);
  if (settings.ledgerLogKey !== null) await app.register(ledgerLogRoutes, { vkey: settings.ledgerLogKey });
  await app.register(liveRoutes, settings.live);
  await app.register(agreementRoutes);
  if (settings.sandboxProcessorCredential !== null)
    await app.register(cardProcessorRoutes, { credential: settings.sandboxProcessorCredential });
  await app.register(paymentMethodRoutes);
  await app.register(pricingRoutes);
  await app.register(cardPaymentRoutes);
  await app.register(depositRoutes, settings.deposits);
  await app.register(operationRoutes, {
    bitcoinNetwork: settings.deposits.bitcoin.network,
    outboxBodies: settings.outboxBodies,
    corrections: settings.corrections,
    ledgerLogKey: settings.ledgerLogKey ?? undefined,
  });
  await app.register(sendFundRoutes);
  await app.register(checkoutRoutes);
  await app.register(merchantSpaceRoutes, { settlementCron: settings.settlementCron });
  await app.register(webhookRoutes, settings.webhooks);
};
