import {
  amountMessages,
  depositFundRequest,
  depositFundResponse,
  errorCodes,
  paymentMethodMessages,
  purchaseRequest,
  transactionResponse,
  withdrawRequest,
} from '@peeks/contracts';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { runLedgerCommand, sessionWalletOwner, transactionIdFor, transactionView } from '../../plugins/ledger.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { confirmPin, hasPin } from '../credentials/checks.ts';
import { chargeThenRecord, ownCard, ownMethod, paymentMethodRef } from './charge.ts';
import { chargeForCoins, purchasableCoins } from './pricing.ts';

/** Buying coins and adding funds with a stored card, and withdrawing to a stored card or bank account. */
export const cardPaymentRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);
  const rateMicros = DEFAULT_RATE_MICROS;

  app.post(
    '/api/account/purchase',
    {
      config: {
        operation: {
          operationId: 'purchaseCoins',
          summary: 'Buy coins with a stored card',
          tag: 'card-payments',
          errors: [404, 409, 422, 503],
          idempotent: true,
          example: { payment_method_id: 12, coin_amt: 50000, currency: 'USD' },
        },
      },
      schema: { body: purchaseRequest, response: { 200: transactionResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const ownerId = sessionWalletOwner(request);
      const { payment_method_id, coin_amt, currency } = request.body;
      const card = await ownCard(app.db, userId, payment_method_id, 'payment_method_id');
      const limits = purchasableCoins(currency, rateMicros);
      if (coin_amt < limits.min * 100)
        throw refuse(400, errorCodes.amountBelowMinimum, {
          field: 'coin_amt',
          message: amountMessages.below(limits.min),
        });
      if (coin_amt > limits.max * 100)
        throw refuse(400, errorCodes.amountAboveLimit, {
          field: 'coin_amt',
          message: amountMessages.above(limits.max),
        });
      const charge = { amount: chargeForCoins(coin_amt, currency, rateMicros), currency };
      const outcome = await chargeThenRecord(
        request,
        { ownerId, card, charge, field: 'payment_method_id' },
        (txId) => ({
          type: 'PurchaseCoins',
          txId,
          ownerId,
          charge,
          rateMicros,
          paymentMethod: paymentMethodRef(card),
        }),
      );
      return { response: 'success' as const, transaction: transactionView(outcome.record, ownerId) };
    },
  );

  app.post(
    '/api/account/deposit-fund',
    {
      config: {
        operation: {
          operationId: 'depositByCard',
          summary: 'Add funds from a stored card',
          tag: 'card-payments',
          errors: [404, 409, 422, 503],
          idempotent: true,
        },
      },
      schema: { body: depositFundRequest, response: { 200: depositFundResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const ownerId = sessionWalletOwner(request);
      const { amount, currency, paymentMethodId } = request.body;
      const card = await ownCard(app.db, userId, paymentMethodId, 'paymentMethodId');
      const outcome = await chargeThenRecord(
        request,
        { ownerId, card, charge: { amount, currency }, field: 'paymentMethodId' },
        (txId) => ({
          type: 'DepositByCard',
          txId,
          ownerId,
          amount,
          currency,
          paymentMethod: paymentMethodRef(card),
        }),
      );
      return {
        response: 'success' as const,
        message: paymentMethodMessages.deposited,
        transaction: transactionView(outcome.record, ownerId),
      };
    },
  );

  /** The money is reserved now; a worker or a finance operator pays it out or fails it later. */
  app.post(
    '/api/account/withdraw',
    {
      config: {
        operation: {
          operationId: 'withdraw',
          summary: 'Withdraw to a stored card or bank account',
          tag: 'card-payments',
          errors: [404, 409, 422, 503],
          idempotent: true,
          example: { amount: 2500, currency: 'CAD', paymentMethodId: 7, pin: '1234' },
        },
      },
      schema: { body: withdrawRequest, response: { 200: transactionResponse } },
    },
    async (request, reply) => {
      const { userId } = signedIn(request);
      const ownerId = sessionWalletOwner(request);
      const { amount, currency, paymentMethodId, pin } = request.body;
      const method = await ownMethod(app.db, userId, paymentMethodId, 'paymentMethodId');
      // The PIN of the person at the keyboard, also when acting for a merchant.
      if (await hasPin(app.db, userId)) {
        if (pin === undefined) throw refuse(422, errorCodes.pinNeeded, { field: 'pin' });
        await confirmPin(app.db, reply, { userId, pin, field: 'pin' }, app.clock());
      }
      const txId = transactionIdFor(request, ownerId);
      const outcome = await runLedgerCommand(request, ownerId, {
        type: 'RequestWithdrawal',
        txId,
        ownerId,
        amount,
        currency,
        destination: {
          kind: method.type === 'CC' ? 'card' : 'bank',
          paymentMethodId: String(method.payment_method_id),
        },
      });
      return { response: 'success' as const, transaction: transactionView(outcome.record, ownerId) };
    },
  );

  return Promise.resolve();
};
