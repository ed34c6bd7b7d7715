import {
  createWebhookRequest,
  deleteWebhookRequest,
  emptySuccess,
  errorCodes,
  listDeliveriesRequest,
  listWebhookRequest,
  lookupQuery,
  replayDeliveryRequest,
  updateWebhookRequest,
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookListResponse,
  webhookMessages,
  webhookResponse,
  webhookUpdatedResponse,
} from '@peeks/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { actingMerchant, onlyOwn } from '../merchants/acting-merchant.ts';
import { replayDelivery, type ResolveHost } from '@peeks/jobs';
import { findDelivery, listDeliveries } from './deliveries.ts';
import { checkDestination } from './destination.ts';
import { createWebhook, deleteWebhook, findWebhook, listWebhooks, updateWebhook } from './queries.ts';
import { newSigningSecret } from './secret.ts';

export interface WebhookRouteOptions {
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback URLs allowed, for local development only. */
  allowPrivate: boolean;
  resolve: ResolveHost;
}

/** The Webhooks page: merchant users with the webhooks permission, on the merchant the session acts for. */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRouteOptions> = (app, options) => {
  const acting = async (
    request: FastifyRequest,
    given: { merchant_id?: number | undefined; user_id?: number | undefined } = {},
  ) => {
    const merchant = await actingMerchant(request, 'MANAGE_WEBHOOKS');
    onlyOwn(given.merchant_id, merchant.merchantId, errorCodes.merchantNotFound);
    onlyOwn(given.user_id, merchant.userId, errorCodes.userNotFound);
    return merchant;
  };

  app.post(
    '/api/webhook/list-webhook',
    { schema: { body: listWebhookRequest, response: { 200: webhookListResponse } } },
    async (request) => {
      const merchant = await acting(request, request.body);
      return { response: 'success' as const, webhook: await listWebhooks(app.db, merchant.merchantId) };
    },
  );

  app.get(
    '/api/webhook/lookup-webhook',
    { schema: { querystring: lookupQuery, response: { 200: webhookResponse } } },
    async (request) => {
      const merchant = await acting(request);
      const webhook = await findWebhook(app.db, merchant.merchantId, request.query.id);
      if (!webhook) throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const, webhook };
    },
  );

  app.post(
    '/api/webhook/create-webhook',
    { schema: { body: createWebhookRequest, response: { 200: webhookCreatedResponse } } },
    async (request) => {
      const merchant = await acting(request, request.body);
      await checkDestination(request.body.url, options);
      const secret = newSigningSecret();
      const webhook = await createWebhook(app.db, merchant, request.body, secret, app.clock());
      return { response: 'success' as const, message: webhookMessages.created, data: { webhook, secret } };
    },
  );

  app.post(
    '/api/webhook/update-webhook',
    { schema: { body: updateWebhookRequest, response: { 200: webhookUpdatedResponse } } },
    async (request) => {
      const merchant = await acting(request, request.body);
      // Whose webhook it is is checked before the URL, so the answer tells nothing about another merchant's.
      if (!(await findWebhook(app.db, merchant.merchantId, request.body.webhook_id)))
        throw refuse(404, errorCodes.webhookNotFound);
      await checkDestination(request.body.url, options);
      const webhook = await updateWebhook(
        app.db,
        merchant.merchantId,
        request.body.webhook_id,
        request.body,
        app.clock(),
      );
      if (!webhook) throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const, message: webhookMessages.updated, webhook };
    },
  );

  app.post(
    '/api/webhook/delete-webhook',
    { schema: { body: deleteWebhookRequest, response: { 200: emptySuccess } } },
    async (request) => {
      const merchant = await acting(request);
      if (!(await deleteWebhook(app.db, merchant.merchantId, request.body.webhook_id)))
        throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const };
    },
  );

  app.post(
    '/api/webhook/list-deliveries',
    { schema: { body: listDeliveriesRequest, response: { 200: webhookDeliveryListResponse } } },
    async (request) => {
      const merchant = await acting(request);
      if (!(await findWebhook(app.db, merchant.merchantId, request.body.webhook_id)))
        throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const, ...(await listDeliveries(app.db, request.body.webhook_id, request.body)) };
    },
  );

  app.post(
    '/api/webhook/replay-delivery',
    { schema: { body: replayDeliveryRequest, response: { 200: webhookDeliveryResponse } } },
    async (request) => {
      const merchant = await acting(request);
      const { delivery_id: deliveryId } = request.body;
      if (!(await findDelivery(app.db, merchant.merchantId, deliveryId)))
        throw refuse(404, errorCodes.webhookDeliveryNotFound);
      // The new attempt's job is enqueued in the transaction that marks the delivery pending again: both or neither.
      const outcome = await app.db
        .transaction()
        .execute((trx) => replayDelivery(trx, app.jobs, deliveryId, app.clock()));
      if (outcome === 'still pending') throw refuse(409, errorCodes.webhookDeliveryPending);
      if (outcome === 'webhook disabled') throw refuse(409, errorCodes.webhookDisabled);
      if (outcome === 'not found') throw refuse(404, errorCodes.webhookDeliveryNotFound);
      const delivery = await findDelivery(app.db, merchant.merchantId, deliveryId);
      if (!delivery) throw refuse(404, errorCodes.webhookDeliveryNotFound);
      return { response: 'success' as const, delivery };
    },
  );

  return Promise.resolve();
};
