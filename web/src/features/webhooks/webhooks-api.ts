import {
  emptySuccess,
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookDeliverySentResponse,
  webhookListResponse,
  webhookSecretRotatedResponse,
  webhookUpdatedResponse,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';
import { useLoaded } from '../../lib/loaded.ts';

export const listWebhooks = async () =>
  (await callApi('/webhook/list-webhook', webhookListResponse, { body: {} })).webhook;
export const createWebhook = (form: CreateWebhookRequest) =>
  callApi('/webhook/create-webhook', webhookCreatedResponse, { body: form });
export const updateWebhook = (form: UpdateWebhookRequest) =>
  callApi('/webhook/update-webhook', webhookUpdatedResponse, { body: form });
export const deleteWebhook = (webhookId: number) =>
  callApi('/webhook/delete-webhook', emptySuccess, { body: { webhook_id: webhookId } });
export const rotateSecret = (webhookId: number) =>
  callApi('/webhook/rotate-secret', webhookSecretRotatedResponse, { body: { webhook_id: webhookId } });
export const listDeliveries = (webhookId: number, offset: number, limit: number) =>
  callApi('/webhook/list-deliveries', webhookDeliveryListResponse, {
    body: { webhook_id: webhookId, offset, limit },
  });
export const replayDelivery = async (deliveryId: string) =>
  (await callApi('/webhook/replay-delivery', webhookDeliveryResponse, { body: { delivery_id: deliveryId } })).delivery;
export const sendTestEvent = (webhookId: number, event?: WebhookEvent) =>
  callApi('/webhook/send-test-event', webhookDeliverySentResponse, {
    body: { webhook_id: webhookId, ...(event ? { event } : {}) },
  });

export const useWebhooks = () => useLoaded<Webhook[]>(listWebhooks, 'webhooks');

export const DELIVERIES_SHOWN = 10;
export const useDeliveries = (webhookId: number, offset: number) =>
  useLoaded<{ deliveries: WebhookDelivery[]; total: number }>(
    () => listDeliveries(webhookId, offset, DELIVERIES_SHOWN),
    `${webhookId}:${offset}`,
  );
