import { webhookCreatedResponse } from '@peeks/contracts';
import type { SignedIn } from '../../testing/merchants.ts';
import { failedDelivery, hook } from '../../testing/webhooks.ts';
import { body, made, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const merchantRecord = { ownRecord: true, owner: 'business' as const };
const newWebhook = (owner: SignedIn) =>
  made(
    owner,
    '/api/webhook/create-webhook',
    hook(),
    (answer) => webhookCreatedResponse.parse(answer).data.webhook.webhook_id,
  );

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  // Any signed-in user has webhooks; the table's owner acts for a merchant (personal ones: webhooks.test.ts).
  'POST /api/webhook/list-webhook': sample((owner) => body({ merchant_id: owner.merchantId }), {
    ...merchantRecord,
    optional: ['merchant_id'],
    bodyOptional: true,
  }),
  'GET /api/webhook/lookup-webhook': sample(async (owner) => query({ id: await newWebhook(owner) }), merchantRecord),
  'POST /api/webhook/create-webhook': sample((owner) => body(hook({ merchant_id: owner.merchantId })), {
    ...merchantRecord,
    optional: ['merchant_id'],
  }),
  'POST /api/webhook/update-webhook': sample(
    async (owner) =>
      body(hook({ merchant_id: owner.merchantId, webhook_id: await newWebhook(owner), state: 'disabled' })),
    { ...merchantRecord, optional: ['merchant_id'] },
  ),
  'POST /api/webhook/delete-webhook': sample(
    async (owner) => body({ webhook_id: await newWebhook(owner) }),
    merchantRecord,
  ),
  'POST /api/webhook/rotate-secret': sample(
    async (owner) => body({ webhook_id: await newWebhook(owner) }),
    merchantRecord,
  ),
  'POST /api/webhook/send-test-event': sample(
    async (owner) => body({ webhook_id: await newWebhook(owner), event: 'purchase' }),
    { ...merchantRecord, optional: ['event'] },
  ),
  'POST /api/webhook/list-deliveries': sample(async (owner) => body({ webhook_id: await newWebhook(owner) }), {
    ...merchantRecord,
    optional: ['offset', 'limit'],
  }),
  'POST /api/webhook/replay-delivery': sample(
    async (owner, subject) =>
      body({ delivery_id: await failedDelivery(subject, owner.merchantId, await newWebhook(owner)) }),
    merchantRecord,
  ),
};
