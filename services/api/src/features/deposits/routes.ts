import { depositListResponse } from '@peeks/contracts';
import type { Config } from '@peeks/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionWalletOwner } from '../payments/index.ts';
import { requireSignIn } from '../../plugins/sessions.ts';
import { fixedBitcoinPrice } from './bitcoin/price.ts';
import { bitcoinRoutes, type BitcoinSettings } from './bitcoin/routes.ts';
import type { EmailTransferRecipients } from './email-transfer.ts';
import { depositsOf } from './deposit-list.ts';
import { emailTransferRoutes } from './email-transfer-routes.ts';

export interface DepositSettings {
  recipients: EmailTransferRecipients;
  bitcoin: BitcoinSettings;
}

/** The Deposit dialog's calls: e-mail transfers (Interac, Zelle) and bitcoin. */
export const depositRoutes: FastifyPluginAsyncZod<DepositSettings> = async (app, settings) => {
  await app.register(emailTransferRoutes, { recipients: settings.recipients });
  await app.register(bitcoinRoutes, settings.bitcoin);
  await app.register(depositListRoutes);
};

/** The pending-deposits view's list; GET /api/live pushes each change to one of them as a `deposit` message. */
const depositListRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/account/deposits',
    {
      config: {
        operation: { operationId: 'listDeposits', summary: "List the user's pending deposits", tag: 'deposits' },
      },
      onRequest: requireSignIn,
      schema: { response: { 200: depositListResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      deposits: await depositsOf(app.db, sessionWalletOwner(request)),
    }),
  );
  return Promise.resolve();
};

/** The deposit settings of a configuration (readConfig({}) gives the sandbox defaults). */
export function depositSettingsFrom(
  config: Pick<
    Config,
    'INTERAC_RECIPIENT' | 'ZELLE_RECIPIENT' | 'BITCOIN_NETWORK' | 'BITCOIN_XPUB' | 'BITCOIN_USD_RATE'
  >,
): DepositSettings {
  return {
    recipients: { interac: config.INTERAC_RECIPIENT, zelle: config.ZELLE_RECIPIENT },
    bitcoin: {
      network: config.BITCOIN_NETWORK,
      ...(config.BITCOIN_XPUB === undefined ? {} : { xpub: config.BITCOIN_XPUB }),
      price: fixedBitcoinPrice(config.BITCOIN_USD_RATE),
    },
  };
}
