import {
  checkoutDetailsQuery,
  checkoutQuery,
  checkoutResponse,
  createCheckoutRequest,
  createCheckoutResponse,
  errorCodes,
  payCheckoutRequest,
  paymentResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import {
  merchantPayee,
  payeePayment,
  presentOutcome,
  runLedgerCommand,
  sessionWalletOwner,
} from '../payments/index.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { cardFunding, chargeThenRecord, ownCard } from '../card-payments/index.ts';
import { actingMerchant } from '../merchants/index.ts';
import { coinPriceFor, payFromCoins, quoteView } from '../pricing/index.ts';
import { createCheckout, findCheckout, findCheckoutByToken, withCart } from './queries.ts';

/**
 * Hosted checkout (spec §2, "Checkout page (id, token)"): a merchant opens a
 * session for a cart; anyone with its link sees the summary, and a
 * signed-in payer pays it from the wallet balance or with a stored card,
 * once. Unknown ids, wrong tokens, expired sessions and sessions someone
 * else paid all read 'No such a transaction'.
 */
export const checkoutRoutes: FastifyPluginAsyncZod = (app) => {
  const noSuchTransaction = (field: string) => refuse(404, errorCodes.transactionNotFound, { field });

  app.post(
    '/api/checkout/create-session',
    {
      config: {
        operation: {
          operationId: 'createCheckoutSession',
          summary: 'Open a checkout session for a sale',
          tag: 'checkout',
          caller: 'merchant',
        },
      },
      onRequest: requireSignIn,
      schema: { body: createCheckoutRequest, response: { 200: createCheckoutResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'ACCEPT_PAYMENTS');
      const created = await createCheckout(app.db, acting, request.body, app.clock());
      return {
        response: 'success' as const,
        id: created.id,
        token: created.token,
        expires_at: created.expiresAt.toISOString(),
      };
    },
  );

  app.get(
    '/api/checkout/session-details',
    {
      config: {
        operation: {
          operationId: 'getCheckoutSessionDetails',
          summary: "Get a checkout session's sale, for its merchant",
          tag: 'checkout',
          errors: [404],
          caller: 'merchant',
        },
      },
      onRequest: requireSignIn,
      schema: { querystring: checkoutDetailsQuery, response: { 200: checkoutResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'ACCEPT_PAYMENTS');
      const checkout = await findCheckout(app.db, request.query.id, app.clock(), acting.merchantId);
      if (!checkout) throw noSuchTransaction('id');
      return { response: 'success' as const, checkout: checkout.view };
    },
  );

  // Public: a guest sees the summary beside the login box.
  app.get(
    '/api/checkout/session',
    {
      config: {
        access: 'public',
        operation: {
          operationId: 'getCheckoutSession',
          summary: 'Get a checkout session, for its payer',
          tag: 'checkout',
          errors: [404],
        },
      },
      schema: { querystring: checkoutQuery, response: { 200: checkoutResponse } },
    },
    async (request) => {
      const checkout = await findCheckoutByToken(app.db, request.query.id, request.query.token, app.clock());
      if (!checkout) throw noSuchTransaction('id');
      return { response: 'success' as const, checkout: checkout.view };
    },
  );

  app.post(
    '/api/checkout/pay',
    {
      config: {
        operation: {
          operationId: 'payCheckout',
          summary: 'Pay a checkout session from the wallet or a stored card',
          tag: 'checkout',
          errors: [404, 409, 422, 503],
        },
      },
      onRequest: requireSignIn,
      schema: { body: payCheckoutRequest, response: { 200: paymentResponse } },
    },
    async (request) => {
      const payer = sessionWalletOwner(request);
      const checkout = await findCheckoutByToken(app.db, request.body.id, request.body.token, app.clock());
      if (!checkout || checkout.view.state === 'expired') throw noSuchTransaction('id');
      if (checkout.view.state === 'paid' && checkout.payerOwnerId !== payer) throw noSuchTransaction('id');

      // The session's own transaction id: a retry, or a second payer racing this one, finds it written and moves nothing.
      const payment = {
        txId: checkout.txId,
        payerOwnerId: payer,
        payee: merchantPayee(checkout.createdBy, checkout.view.merchant_id),
        amount: checkout.view.total,
        currency: checkout.currency,
        memo: `checkout ${checkout.view.id}`,
      };
      const { paymentMethodId, quote_id } = request.body;
      let outcome;
      let coinPrice = null;
      if (paymentMethodId === undefined || checkout.view.state === 'paid') {
        // A dollar total the payer's dollars do not cover is paid from their coins at a quote.
        coinPrice =
          paymentMethodId === undefined
            ? await coinPriceFor(
                request,
                payer,
                { amount: payment.amount, currency: payment.currency },
                quote_id,
                checkout.txId,
              )
            : null;
        const paidFromCoins = coinPrice?.paidFromCoins;
        outcome = await payFromCoins(request, checkout.txId, quote_id, () =>
          runLedgerCommand(request, payer, payeePayment({ ...payment, ...(paidFromCoins && { paidFromCoins }) })),
        );
      } else {
        const card = await ownCard(app.db, signedIn(request).userId, paymentMethodId, 'paymentMethodId');
        const fundedBy = cardFunding(card, payment.amount, payment.currency, 'paymentMethodId');
        // Each card racing for the session is charged under its own key; the ones that lose are refunded.
        const ids = { txId: checkout.txId, chargeReference: `${checkout.txId}:card-${card.payment_method_id}` };
        outcome = await chargeThenRecord(
          request,
          { ownerId: payer, card, charge: fundedBy.charge, field: 'paymentMethodId' },
          (txId) => payeePayment({ ...payment, txId, fundedBy }),
          ids,
        );
      }
      if (outcome.record.payerOwnerId !== payer) throw noSuchTransaction('id');
      return {
        response: 'success' as const,
        transaction: withCart(await presentOutcome(app.db, payer, outcome), checkout),
        quote: coinPrice ? quoteView(coinPrice.quote) : null,
      };
    },
  );

  return Promise.resolve();
};
