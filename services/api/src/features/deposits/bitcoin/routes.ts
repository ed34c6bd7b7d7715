import {
  bitcoinInfoRequest,
  bitcoinInfoResponse,
  depositCoinsRequest,
  depositCoinsResponse,
  errorCodes,
  formatBitcoin,
} from '@peeks/contracts';
import { RATE_SCALE, walletIdOf } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { platformSecret } from '@peeks/jobs';
import { refuse } from '../../../plugins/error-envelope.ts';
import { presentOutcome, runLedgerCommand, sessionWalletOwner, transactionIdFor } from '../../payments/index.ts';
import { requireSignIn, signedIn } from '../../../plugins/sessions.ts';
import { quoteForCommand, quoteView } from '../../pricing/index.ts';
import { DepositAddresses, type BitcoinNetwork } from './hd-wallet.ts';
import type { BitcoinPriceSource } from './price.ts';
import { depositKey, findBitcoinDeposit, nextAddressIndex, storeBitcoinDeposit } from './queries.ts';
import { checkQuote, signQuote } from './quote.ts';

export interface BitcoinSettings {
  network: BitcoinNetwork;
  /** BITCOIN_XPUB; left out, the network's generated key. */
  xpub?: string;
  price: BitcoinPriceSource;
}

/** Bitcoin is priced in US dollars, the price list's reference currency: 20 coins a dollar. */
const USD_RATE_MICROS = RATE_SCALE;

/** How long a deposit address waits for its payment (§9). */
export const ADDRESS_LIFETIME_MS = 24 * 60 * 60_000;

/**
 * BITCOIN DEPOSIT: step 1 quotes (get-bitcoin-info), step 2 turns the quote
 * into a pending deposit with a fresh address (deposit-coins). Nothing is
 * credited until the payment is seen and the deposit cleared.
 */
export const bitcoinRoutes: FastifyPluginAsyncZod<BitcoinSettings> = (app, settings) => {
  // Read (or made) on first use, not while the routes are added: the OpenAPI document is
  // written from the routes alone, with no database (openapi/document-cli.ts).
  let keys: Promise<{ key: { keyId: number }; addresses: DepositAddresses; quoteSecret: Buffer }> | undefined;
  const ready = () =>
    (keys ??= (async () => {
      const now = app.clock();
      const key = await depositKey(app.db, settings.network, settings.xpub, now);
      return {
        key,
        addresses: new DepositAddresses(key.xpub, settings.network),
        quoteSecret: await platformSecret(app.db, 'bitcoin-quote', now),
      };
    })().catch((error: unknown) => {
      keys = undefined;
      throw error;
    }));

  app.addHook('onRequest', requireSignIn);

  app.post(
    '/api/account/get-bitcoin-info',
    {
      config: {
        operation: {
          operationId: 'quoteBitcoinDeposit',
          summary: 'Quote a bitcoin deposit',
          tag: 'deposits',
          example: { amount: 250 },
        },
      },
      schema: { body: bitcoinInfoRequest, response: { 200: bitcoinInfoResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const { quoteSecret } = await ready();
      const terms = {
        usdCents: request.body.amount * 100,
        usdCentsPerBitcoin: await settings.price.usdCentsPerBitcoin(),
        rateMicros: USD_RATE_MICROS,
      };
      return { response: 'success' as const, ...signQuote(terms, userId, quoteSecret, app.clock()) };
    },
  );

  app.post(
    '/api/account/deposit-coins',
    {
      config: {
        operation: {
          operationId: 'depositBitcoin',
          summary: 'Get an address for a quoted bitcoin deposit',
          tag: 'deposits',
          errors: [409, 422, 503],
          idempotent: true,
        },
      },
      schema: { body: depositCoinsRequest, response: { 200: depositCoinsResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const quote = request.body;
      const { key, addresses, quoteSecret } = await ready();
      const checked = checkQuote(quote, userId, quoteSecret, app.clock());
      if (!checked.valid)
        throw refuse(
          422,
          checked.reason === 'expired' ? errorCodes.bitcoinQuoteExpired : errorCodes.bitcoinQuoteInvalid,
          { field: 'hash' },
        );

      const owner = sessionWalletOwner(request);
      const txId = transactionIdFor(request, owner);
      const coinQuote = await quoteForCommand(
        request,
        { from: 'USD', to: 'CON', amountIn: quote.USDAmount },
        quote.quote_id,
        txId,
      );
      // The signed bitcoin quote names the coins; a coin quote at another price cannot stand beside it.
      if (coinQuote.amount_out !== quote.peeksCoins)
        throw refuse(422, errorCodes.bitcoinQuoteExpired, { field: 'hash' });
      const { deposit, outcome } = await app.db.transaction().execute(async (trx) => {
        const newDeposit = async () => {
          const index = await nextAddressIndex(trx);
          const created = app.clock();
          return storeBitcoinDeposit(trx, {
            tx_id: txId,
            user_id: userId,
            key_id: key.keyId,
            derivation_index: index,
            address: addresses.addressAt(index),
            amount_sats: quote.totalBitcoinAmount,
            usd_cents: quote.USDAmount,
            usd_cents_per_btc: quote.BTCtoUSD,
            coins: quote.peeksCoins,
            created_at: created,
            expires_at: new Date(created.getTime() + ADDRESS_LIFETIME_MS),
          });
        };
        // A retry with the same Idempotency-Key gets the address its first request stored, even one stored while it waited.
        const stored =
          (await findBitcoinDeposit(trx, txId)) ?? (await newDeposit()) ?? (await findBitcoinDeposit(trx, txId));
        if (!stored) throw new Error(`bitcoin deposit ${txId} is neither new nor stored`);
        const outcome = await runLedgerCommand(
          request,
          owner,
          {
            type: 'EnterDeposit',
            txId,
            ownerId: owner,
            method: 'bitcoin',
            payment: { amount: stored.usd_cents, currency: 'USD' },
            rateMicros: coinQuote.rate_micros,
            reference: stored.address,
            expiresAt: stored.expires_at.toISOString(),
            quoteId: coinQuote.quote_id,
          },
          trx,
        );
        return { deposit: stored, outcome };
      });

      const wallet = (await walletsOf(app.db, owner)).find((each) => each.walletId === walletIdOf(owner, 'CON'));
      return {
        response: 'success' as const,
        recipientIdentifier: deposit.address,
        availableBalance: wallet?.available ?? 0,
        futurePaymentId: deposit.tx_id,
        expectedAmountCents: deposit.usd_cents,
        expectedAmount: deposit.amount_sats,
        qrCode: `bitcoin:${deposit.address}?amount=${formatBitcoin(deposit.amount_sats)}`,
        expiresAt: deposit.expires_at.toISOString(),
        transaction: await presentOutcome(app.db, owner, outcome),
        quote: quoteView(coinQuote),
      };
    },
  );
  return Promise.resolve();
};
