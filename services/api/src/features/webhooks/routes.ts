import {
  createWebhookRequest,
  deleteWebhookRequest,
  emptySuccess,
  errorCodes,
  listDeliveriesRequest,
  listWebhookRequest,
  lookupQuery,
  personalWebhookEvents,
  PREVIOUS_SECRET_HOURS,
  replayDeliveryRequest,
  rotateSecretRequest,
  sendTestEventRequest,
  updateWebhookRequest,
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookDeliverySentResponse,
  webhookListResponse,
  webhookMessages,
  webhookResponse,
  webhookSecretRotatedResponse,
  type WebhookEvent,
  webhookUpdatedResponse,
} from '@peeks/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { actingMerchant, onlyOwn } from '../merchants/index.ts';
import { replayDelivery, type ResolveHost } from '@peeks/jobs';
import { signedIn } from '../../plugins/sessions.ts';
import { findDelivery, listDeliveries, sendTestEvent } from './deliveries.ts';
import { checkDestination } from './destination.ts';
import {
  createWebhook,
  deleteWebhook,
  findWebhook,
  listWebhooks,
  rotateSecret,
  updateWebhook,
  type WebhookOwner,
} from './queries.ts';
import { newSigningSecret } from './secret.ts';

export interface WebhookRouteOptions {
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback URLs allowed, for local development only. */
  allowPrivate: boolean;
  resolve: ResolveHost;
}

const personalEvents: readonly WebhookEvent[] = personalWebhookEvents;

/**
 * The Webhooks page. A session acting for a merchant sets up the merchant's
 * webhooks (with the webhooks permission); any other signed-in user sets up
 * their own, which hear about their own wallets' deposits, withdrawals and
 * returns. Another owner's webhook or delivery is 404.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRouteOptions> = (app, options) => {
  const owning = async (
    request: FastifyRequest,
    given: { merchant_id?: number | null | undefined; user_id?: number | undefined } = {},
  ): Promise<WebhookOwner> => {
    const session = signedIn(request);
    if (session.merchantId === null) {
      onlyOwn(given.merchant_id, null, errorCodes.merchantNotFound);
      onlyOwn(given.user_id, session.userId, errorCodes.userNotFound);
      return { merchantId: null, userId: session.userId };
    }
    const merchant = await actingMerchant(request, 'MANAGE_WEBHOOKS');
    onlyOwn(given.merchant_id, merchant.merchantId, errorCodes.merchantNotFound);
    onlyOwn(given.user_id, merchant.userId, errorCodes.userNotFound);
    return { merchantId: merchant.merchantId, userId: merchant.userId };
  };
  /** A personal webhook hears about the user's own money in and out, nothing a merchant's would. */
  const checkEvents = (owner: WebhookOwner, events: readonly WebhookEvent[]) => {
    if (owner.merchantId === null && events.some((event) => !personalEvents.includes(event)))
      throw refuse(422, errorCodes.webhookEventNotPersonal, { field: 'events' });
  };
  const ownWebhook = async (owner: WebhookOwner, webhookId: number) => {
    const webhook = await findWebhook(app.db, owner, webhookId);
    if (!webhook) throw refuse(404, errorCodes.webhookNotFound);
    return webhook;
  };

  app.post(
    '/api/webhook/list-webhook',
    {
      config: { operation: { operationId: 'listWebhooks', summary: "List the owner's webhooks", tag: 'webhooks' } },
      schema: { body: listWebhookRequest, response: { 200: webhookListResponse } },
    },
    async (request) => {
      const owner = await owning(request, request.body);
      return { response: 'success' as const, webhook: await listWebhooks(app.db, owner) };
    },
  );

  app.get(
    '/api/webhook/lookup-webhook',
    {
      config: {
        operation: { operationId: 'lookupWebhook', summary: 'Get one webhook', tag: 'webhooks', errors: [404] },
      },
      schema: { querystring: lookupQuery, response: { 200: webhookResponse } },
    },
    async (request) => {
      const owner = await owning(request);
      return { response: 'success' as const, webhook: await ownWebhook(owner, request.query.id) };
    },
  );

  app.post(
    '/api/webhook/create-webhook',
    {
      config: {
        operation: {
          operationId: 'createWebhook',
          summary: 'Add a webhook',
          tag: 'webhooks',
          errors: [422],
          example: { state: 'enabled', url: 'https://shop.example/peeks-hook', events: ['purchase', 'return'] },
        },
      },
      schema: { body: createWebhookRequest, response: { 200: webhookCreatedResponse } },
    },
    async (request) => {
      const owner = await owning(request, request.body);
      checkEvents(owner, request.body.events);
      await checkDestination(request.body.url, options);
      const secret = newSigningSecret();
      const webhook = await createWebhook(app.db, owner, request.body, secret, app.clock());
      return { response: 'success' as const, message: webhookMessages.created, data: { webhook, secret } };
    },
  );

  app.post(
    '/api/webhook/update-webhook',
    {
      config: {
        operation: { operationId: 'updateWebhook', summary: 'Update a webhook', tag: 'webhooks', errors: [404, 422] },
      },
      schema: { body: updateWebhookRequest, response: { 200: webhookUpdatedResponse } },
    },
    async (request) => {
      const owner = await owning(request, request.body);
      // Whose webhook it is is checked before the URL, so the answer tells nothing about another owner's.
      await ownWebhook(owner, request.body.webhook_id);
      checkEvents(owner, request.body.events);
      await checkDestination(request.body.url, options);
      const webhook = await updateWebhook(app.db, owner, request.body.webhook_id, request.body, app.clock());
      if (!webhook) throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const, message: webhookMessages.updated, webhook };
    },
  );

  app.post(
    '/api/webhook/delete-webhook',
    {
      config: {
        operation: { operationId: 'deleteWebhook', summary: 'Delete a webhook', tag: 'webhooks', errors: [404] },
      },
      schema: { body: deleteWebhookRequest, response: { 200: emptySuccess } },
    },
    async (request) => {
      const owner = await owning(request);
      if (!(await deleteWebhook(app.db, owner, request.body.webhook_id))) throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const };
    },
  );

  app.post(
    '/api/webhook/rotate-secret',
    {
      config: {
        operation: {
          operationId: 'rotateWebhookSecret',
          summary: "Replace a webhook's signing secret",
          tag: 'webhooks',
          errors: [404],
        },
      },
      schema: { body: rotateSecretRequest, response: { 200: webhookSecretRotatedResponse } },
    },
    async (request) => {
      const owner = await owning(request);
      const now = app.clock();
      const secret = newSigningSecret();
      const previousUntil = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000);
      const webhook = await rotateSecret(app.db, owner, request.body.webhook_id, secret, previousUntil, now);
      if (!webhook) throw refuse(404, errorCodes.webhookNotFound);
      return { response: 'success' as const, message: webhookMessages.rotated, data: { webhook, secret } };
    },
  );

  app.post(
    '/api/webhook/list-deliveries',
    {
      config: {
        operation: {
          operationId: 'listWebhookDeliveries',
          summary: "List a webhook's deliveries",
          tag: 'webhooks',
          errors: [404],
        },
      },
      schema: { body: listDeliveriesRequest, response: { 200: webhookDeliveryListResponse } },
    },
    async (request) => {
      const owner = await owning(request);
      await ownWebhook(owner, request.body.webhook_id);
      return { response: 'success' as const, ...(await listDeliveries(app.db, request.body.webhook_id, request.body)) };
    },
  );

  app.post(
    '/api/webhook/replay-delivery',
    {
      config: {
        operation: {
          operationId: 'replayWebhookDelivery',
          summary: 'Send a delivery again',
          tag: 'webhooks',
          errors: [404, 409],
        },
      },
      schema: { body: replayDeliveryRequest, response: { 200: webhookDeliveryResponse } },
    },
    async (request) => {
      const owner = await owning(request);
      const { delivery_id: deliveryId } = request.body;
      if (!(await findDelivery(app.db, owner, deliveryId))) throw refuse(404, errorCodes.webhookDeliveryNotFound);
      // The new attempt's job is enqueued in the transaction that marks the delivery pending again: both or neither.
      const outcome = await app.db
        .transaction()
        .execute((trx) => replayDelivery(trx, app.jobs, deliveryId, app.clock()));
      if (outcome === 'still pending') throw refuse(409, errorCodes.webhookDeliveryPending);
      if (outcome === 'webhook disabled') throw refuse(409, errorCodes.webhookDisabled);
      if (outcome === 'not found') throw refuse(404, errorCodes.webhookDeliveryNotFound);
      const delivery = await findDelivery(app.db, owner, deliveryId);
      if (!delivery) throw refuse(404, errorCodes.webhookDeliveryNotFound);
      return { response: 'success' as const, delivery };
    },
  );

  app.post(
    '/api/webhook/send-test-event',
    {
      config: {
        operation: {
          operationId: 'sendWebhookTestEvent',
          summary: 'Send a test event to a webhook',
          tag: 'webhooks',
          errors: [404, 409],
        },
      },
      schema: { body: sendTestEventRequest, response: { 200: webhookDeliverySentResponse } },
    },
    async (request) => {
      const owner = await owning(request);
      const webhook = await ownWebhook(owner, request.body.webhook_id);
      if (webhook.state === 'disabled') throw refuse(409, errorCodes.webhookDisabled);
      const event = request.body.event ?? webhook.events[0] ?? 'deposit-cleared';
      checkEvents(owner, [event]);
      const deliveryId = await app.db
        .transaction()
        .execute((trx) => sendTestEvent(trx, app.jobs, webhook.webhook_id, event, app.clock()));
      const delivery = await findDelivery(app.db, owner, deliveryId);
      if (!delivery) throw refuse(404, errorCodes.webhookDeliveryNotFound);
      return { response: 'success' as const, message: webhookMessages.testSent, delivery };
    },
  );

  return Promise.resolve();
};
