import {
  amountMessages,
  depositFundRequest,
  depositFundResponse,
  errorCodes,
  paymentMethodMessages,
  purchaseRequest,
  purchaseResponse,
  withdrawRequest,
  withdrawResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { presentOutcome, runLedgerCommand, sessionWalletOwner, transactionIdFor } from '../payments/index.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { confirmPin, hasPin } from '../credentials/index.ts';
import { fundingView, methodLabel, quoteForCommand, quoteView } from '../pricing/index.ts';
import { chargeThenRecord, ownCard, ownMethod, paymentMethodRef } from './charge.ts';
import { purchasableCoins } from './pricing.ts';

/** Buying coins and adding funds with a stored card, and withdrawing to a stored card or bank account. */
export const cardPaymentRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  /**
   * Coins bought with a card at a quote: the one named, or the current
   * price. The quote and the funding (card, amount charged) are recorded
   * under the transaction before the card is charged, so a retry with the
   * same Idempotency-Key charges and answers exactly what the first saw.
   */
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
      schema: { body: purchaseRequest, response: { 200: purchaseResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const ownerId = sessionWalletOwner(request);
      const { payment_method_id, coin_amt, currency, quote_id } = request.body;
      const card = await ownCard(app.db, userId, payment_method_id, 'payment_method_id');
      const txId = transactionIdFor(request, ownerId);
      const quote = await quoteForCommand(request, { from: currency, to: 'CON', amountOut: coin_amt }, quote_id, txId);
      const rateMicros = quote.rate_micros;
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
      const charge = { amount: quote.amount_in, currency };
      const funding = { amount: charge.amount, currency, label: methodLabel(card) };
      const outcome = await chargeThenRecord(
        request,
        { ownerId, card, charge, field: 'payment_method_id' },
        () => ({
          type: 'PurchaseCoins',
          txId,
          ownerId,
          charge,
          rateMicros,
          paymentMethod: paymentMethodRef(card),
          quoteId: quote.quote_id,
        }),
        { txId, chargeReference: txId },
      );
      return {
        response: 'success' as const,
        transaction: await presentOutcome(app.db, ownerId, outcome),
        quote: quoteView(quote),
        funding: fundingView(funding),
      };
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
        transaction: await presentOutcome(app.db, ownerId, outcome),
      };
    },
  );

  /**
   * The money is reserved now; a worker or a finance operator pays it out
   * or fails it later. Coins are paid out as cash (USD unless
   * `payout_currency` says CAD) at a quote, the one named or the current
   * price; the cash, the quote and the destination's label are recorded
   * with the withdrawal, so the payout and the history say the same.
   */
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
      schema: { body: withdrawRequest, response: { 200: withdrawResponse } },
    },
    async (request, reply) => {
      const { userId } = signedIn(request);
      const ownerId = sessionWalletOwner(request);
      const { amount, currency, paymentMethodId, pin, payout_currency, quote_id } = request.body;
      const method = await ownMethod(app.db, userId, paymentMethodId, 'paymentMethodId');
      // The PIN of the person at the keyboard, also when acting for a merchant.
      if (await hasPin(app.db, userId)) {
        if (pin === undefined) throw refuse(422, errorCodes.pinNeeded, { field: 'pin' });
        await confirmPin(app.db, reply, { userId, pin, field: 'pin' }, app.clock());
      }
      const txId = transactionIdFor(request, ownerId);
      const quote =
        currency === 'CON'
          ? await quoteForCommand(
              request,
              { from: 'CON', to: payout_currency ?? 'USD', amountIn: amount },
              quote_id,
              txId,
            )
          : null;
      const payout = quote ? { amount: quote.amount_out, currency: payout_currency ?? 'USD' } : { amount, currency };
      const destination = { ...payout, label: methodLabel(method) };
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
        ...(quote ? { payout, quoteId: quote.quote_id } : {}),
      });
      return {
        response: 'success' as const,
        transaction: await presentOutcome(app.db, ownerId, outcome),
        quote: quote ? quoteView(quote) : null,
        payout: fundingView(destination),
      };
    },
  );

  return Promise.resolve();
};
