import { createHash } from 'node:crypto';
import {
  addPayMethodRequest,
  deletePayMethodRequest,
  errorCodes,
  payMethodChangedResponse,
  payMethodListRequest,
  payMethodListResponse,
  paymentMethodMessages,
  paymentMethodResponse,
  providerLookupQuery,
  providerLookupResponse,
  updatePayMethodRequest,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { onlyOwn } from '../merchants/index.ts';
import { addPaymentMethod, deletePaymentMethod, listPaymentMethods, updatePaymentMethod } from './queries.ts';

export const SANDBOX_PROVIDER = 'sandbox';

/** The Payment Methods page and the add-method modals: the signed-in user's own methods only; anyone else's id is 404. */
export const paymentMethodRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  /**
   * What the card modal needs to load the tokenizer (§7: credentials
   * timestamp, domain, authkey). The authkey binds the domain and time the
   * way a real tokenizer's does, but is computed without a secret: nothing
   * here is worth stealing.
   */
  app.get(
    '/api/wallet/payment-provider-lookup',
    {
      config: {
        operation: {
          operationId: 'lookupPaymentProvider',
          summary: 'Get a payment provider',
          tag: 'payment-methods',
          errors: [404],
        },
      },
      schema: { querystring: providerLookupQuery, response: { 200: providerLookupResponse } },
    },
    (request) => {
      if (request.query.provider !== SANDBOX_PROVIDER)
        throw refuse(404, errorCodes.paymentProviderNotFound, { field: 'provider' });
      const domain = `${request.protocol}://${request.host}`;
      const timestamp = app.clock().toISOString();
      return {
        response: 'success' as const,
        detail: {
          provider: SANDBOX_PROVIDER,
          timestamp,
          domain,
          authkey: createHash('sha256').update(`${SANDBOX_PROVIDER}|${domain}|${timestamp}`, 'utf8').digest('hex'),
          token_type: SANDBOX_PROVIDER,
          tokenizer_url: '/api/sandbox/tokenizer',
        },
      };
    },
  );

  app.post(
    '/api/wallet/add-pay-method',
    {
      config: {
        operation: {
          operationId: 'addPaymentMethod',
          summary: 'Store a tokenized card or a bank account',
          tag: 'payment-methods',
          errors: [409],
        },
      },
      schema: { body: addPayMethodRequest, response: { 200: paymentMethodResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const input = request.body;
      // The processor's record of the token gives the brand and mask; a token it never issued is no card.
      const card = input.type === 'CC' ? await app.cardCharges.cardOf(input.type_specific.token) : null;
      if (input.type === 'CC' && !card)
        throw refuse(400, errorCodes.invalidArguments, {
          field: 'type_specific.token',
          message: paymentMethodMessages.cardNumber,
        });
      return {
        response: 'success' as const,
        payment_method: await addPaymentMethod(app.db, userId, input, card, app.clock()),
      };
    },
  );

  app.post(
    '/api/account/pay-method',
    {
      config: {
        operation: {
          operationId: 'listPaymentMethods',
          summary: 'List stored payment methods',
          tag: 'payment-methods',
        },
      },
      schema: { body: payMethodListRequest, response: { 200: payMethodListResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      onlyOwn(request.body?.user_id, userId, errorCodes.userNotFound);
      const methods = await listPaymentMethods(app.db, userId);
      return { response: 'success' as const, methods, total: methods.length };
    },
  );

  app.post(
    '/api/account/user-payment-method-update',
    {
      config: {
        operation: {
          operationId: 'updatePaymentMethod',
          summary: 'Update a stored payment method',
          tag: 'payment-methods',
          errors: [404],
        },
      },
      schema: { body: updatePayMethodRequest, response: { 200: paymentMethodResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const { paymentMethodId, make_default } = request.body;
      return {
        response: 'success' as const,
        payment_method: await updatePaymentMethod(app.db, userId, paymentMethodId, make_default, app.clock()),
      };
    },
  );

  app.post(
    '/api/account/user-payment-method-delete',
    {
      config: {
        operation: {
          operationId: 'deletePaymentMethod',
          summary: 'Delete a stored payment method',
          tag: 'payment-methods',
          errors: [404],
        },
      },
      schema: { body: deletePayMethodRequest, response: { 200: payMethodChangedResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      await deletePaymentMethod(app.db, userId, request.body.paymentMethodId, app.clock());
      return { response: 'success' as const, message: 'Payment method deleted successfully.' };
    },
  );

  return Promise.resolve();
};
