import { errorCodes, paymentResponse, sendFundRequest } from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import {
  payeePayment,
  presentOutcome,
  runLedgerCommand,
  transactionIdFor,
  walletOwnerOfSession,
} from '../payments/index.ts';
import { coinPriceFor, payFromCoins, quoteView } from '../pricing/index.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { cardFunding, chargeThenRecord, ownCard } from '../card-payments/index.ts';
import { cachedPayees, isGlobalIdOf } from './payee.ts';

/**
 * Send Funds and Transfer fund (spec §2, §7): pay another user, or a
 * merchant through one of its users' global id (a scanned QR code), from
 * the signed-in user's wallet or charged to one of their stored cards. A
 * USD or CAD amount is paid from coins at a quote (`quote_id`, or the
 * current price when the payer's dollars fall short; the answer's `quote`). An
 * Idempotency-Key makes a retry answer with the first transaction and move
 * (or charge) nothing.
 */
export const sendFundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignIn);
  const findPayee = await cachedPayees(app.db, app.notifications);

  app.post(
    '/api/account/send-fund',
    {
      config: {
        operation: {
          operationId: 'sendFund',
          summary: 'Send money to a user or merchant',
          tag: 'send-fund',
          errors: [404, 409, 422, 503],
          idempotent: true,
          example: {
            guser_id: '0b6c1f8e-3d2a-4c5b-9e7f-1a2b3c4d5e6f',
            amount: 1250,
            currency: 'CON',
            comment: 'Lunch',
          },
        },
      },
      schema: { body: sendFundRequest, response: { 200: paymentResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const { userId } = session;
      const { guser_id, amount, currency, from_guser_id, comment, paymentMethodId, quote_id } = request.body;
      if (from_guser_id !== undefined && !(await isGlobalIdOf(app.db, userId, from_guser_id))) {
        throw refuse(404, errorCodes.recipientNotFound, { field: 'from_guser_id' });
      }
      const found = await findPayee(guser_id);
      if (!found) throw refuse(404, errorCodes.recipientNotFound, { field: 'guser_id' });
      const { payee } = found;
      // The ledger refuses a wallet paying itself; a merchant's user paying the merchant is caught here.
      if (payee.userId === userId) throw refuse(422, errorCodes.sendToSelf, { field: 'guser_id' });

      // From the session already read, so the request reads it once.
      const payer = walletOwnerOfSession(session);
      const payment = { payerOwnerId: payer, payee, amount, currency, memo: comment ?? null };
      let outcome;
      let coinPrice = null;
      if (paymentMethodId === undefined) {
        const txId = transactionIdFor(request, payer);
        coinPrice = await coinPriceFor(request, payer, { amount, currency }, quote_id, txId);
        const paidFromCoins = coinPrice?.paidFromCoins;
        outcome = await payFromCoins(request, txId, quote_id, () =>
          runLedgerCommand(request, payer, payeePayment({ txId, ...payment, ...(paidFromCoins && { paidFromCoins }) })),
        );
      } else {
        const card = await ownCard(app.db, userId, paymentMethodId, 'paymentMethodId');
        const fundedBy = cardFunding(card, amount, currency, 'paymentMethodId');
        outcome = await chargeThenRecord(
          request,
          { ownerId: payer, card, charge: fundedBy.charge, field: 'paymentMethodId' },
          (txId) => payeePayment({ txId, ...payment, fundedBy }),
        );
      }
      return {
        response: 'success' as const,
        transaction: await presentOutcome(app.db, payer, outcome, new Map([[payee.ownerId, found.party]])),
        quote: coinPrice ? quoteView(coinPrice.quote) : null,
      };
    },
  );
};
