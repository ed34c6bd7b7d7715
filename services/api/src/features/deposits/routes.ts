import type { Config } from '@peeks/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fixedBitcoinPrice } from './bitcoin/price.ts';
import { bitcoinRoutes, type BitcoinSettings } from './bitcoin/routes.ts';
import type { EmailTransferRecipients } from './email-transfer.ts';
import { emailTransferRoutes } from './email-transfer-routes.ts';

export interface DepositSettings {
  recipients: EmailTransferRecipients;
  bitcoin: BitcoinSettings;
}

/** The Deposit dialog's calls: e-mail transfers (Interac, Zelle) and bitcoin. */
export const depositRoutes: FastifyPluginAsyncZod<DepositSettings> = async (app, settings) => {
  await app.register(emailTransferRoutes, { recipients: settings.recipients });
  await app.register(bitcoinRoutes, settings.bitcoin);
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
