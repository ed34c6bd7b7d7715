import type { ResolveHost } from '@peeks/jobs';
import type { FastifyPluginAsync } from 'fastify';
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
