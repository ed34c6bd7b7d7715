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
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** The webhooks feature's query keys: the list and each endpoint's log pages, under `all`. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (webhookId: number, offset: number) => [...webhookKeys.all, 'deliveries', webhookId, offset] as const,
};

/** After a change succeeds, the list and the logs are read again. */
const changed = <T>(result: T): T => {
  void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  return result;
};

const listWebhooks = async () => (await callApi('/webhook/list-webhook', webhookListResponse, { body: {} })).webhook;
export const createWebhook = async (form: CreateWebhookRequest) =>
  changed(await callApi('/webhook/create-webhook', webhookCreatedResponse, { body: form }));
export const updateWebhook = async (form: UpdateWebhookRequest) =>
  changed(await callApi('/webhook/update-webhook', webhookUpdatedResponse, { body: form }));
export const deleteWebhook = async (webhookId: number) =>
  changed(await callApi('/webhook/delete-webhook', emptySuccess, { body: { webhook_id: webhookId } }));
export const rotateSecret = async (webhookId: number) =>
  changed(await callApi('/webhook/rotate-secret', webhookSecretRotatedResponse, { body: { webhook_id: webhookId } }));
const listDeliveries = (webhookId: number, offset: number, limit: number) =>
  callApi('/webhook/list-deliveries', webhookDeliveryListResponse, {
    body: { webhook_id: webhookId, offset, limit },
  });
export const replayDelivery = async (deliveryId: string) =>
  changed(
    (await callApi('/webhook/replay-delivery', webhookDeliveryResponse, { body: { delivery_id: deliveryId } }))
      .delivery,
  );
export const sendTestEvent = async (webhookId: number, event?: WebhookEvent) =>
  changed(
    await callApi('/webhook/send-test-event', webhookDeliverySentResponse, {
      body: { webhook_id: webhookId, ...(event ? { event } : {}) },
    }),
  );

export const useWebhooks = () => useQuery<Webhook[]>({ queryKey: webhookKeys.list(), queryFn: listWebhooks });

export const DELIVERIES_SHOWN = 10;
export const useDeliveries = (webhookId: number, offset: number) =>
  useQuery<{ deliveries: WebhookDelivery[]; total: number }>({
    queryKey: webhookKeys.deliveries(webhookId, offset),
    queryFn: () => listDeliveries(webhookId, offset, DELIVERIES_SHOWN),
    // The page shown stays until the next one is in, as the log's pager moves.
    placeholderData: keepPreviousData,
  });
