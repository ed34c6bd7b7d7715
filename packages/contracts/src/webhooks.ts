import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { WEBHOOK_URL_MAX, webhookMessages } from './form-messages.ts';
import { positiveId, say } from './fields.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** Webhook events (spec §9). */
export const webhookEvents = [
  'deposit-entered',
  'deposit-cleared',
  'withdraw-entered',
  'withdraw-processed',
  'purchase',
  'return',
  'settlement',
] as const;
export const webhookStates = ['enabled', 'disabled'] as const;
/**
 * What a personal user's webhook may hear about: money in and out of the
 * user's own wallet (deposits, withdrawals, returns). Purchases and
 * settlements are merchants' events.
 */
export const personalWebhookEvents = [
  'deposit-entered',
  'deposit-cleared',
  'withdraw-entered',
  'withdraw-processed',
  'return',
] as const satisfies readonly (typeof webhookEvents)[number][];

/** After a rotation the old secret keeps signing beside the new one this long, so receivers can switch. */
export const PREVIOUS_SECRET_HOURS = 24;

/** Ports a receiver may listen on: the web's own, or an unprivileged one. */
const allowedPort = (port: string) => port === '' || port === '80' || port === '443' || Number(port) >= 1024;

/**
 * An http(s) URL as the WHATWG parser reads it, refused where browsers and
 * servers might read it otherwise (issue 21, item 4): no control characters
 * (CR/LF, which the parser would silently drop), no backslash (read as a
 * slash), no user info (an '@' before the host: credentials, or a disguise
 * such as https://good.example\@evil.example), and only ports 80, 443 or
 * 1024 to 65535.
 */
function isHttpUrl(value: string): boolean {
  if (/[\p{Cc}\\\s]/u.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  const authority = value.slice(value.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? '';
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    !authority.includes('@') &&
    url.username === '' &&
    url.password === '' &&
    allowedPort(url.port)
  );
}

/** The URL stored and shown: the WHATWG serialization (lower-case scheme and host, default port dropped, path encoded). */
const webhookUrl = z
  .string({ error: (issue) => (issue.input === undefined ? webhookMessages.urlMissing : webhookMessages.urlInvalid) })
  .trim()
  .min(1, webhookMessages.urlMissing)
  .max(WEBHOOK_URL_MAX, webhookMessages.urlTooLong)
  .refine(isHttpUrl, webhookMessages.urlInvalid)
  .transform((value) => new URL(value).href)
  .pipe(z.string().max(WEBHOOK_URL_MAX, webhookMessages.urlTooLong));

/** The modal: state radio buttons, URL, event checkboxes. */
const webhookFields = {
  // null (or left out) from a personal user: the webhook is the user's own.
  merchant_id: positiveId(say.valid('merchant_id')).nullable().optional(),
  user_id: positiveId(say.valid('user_id')).optional(),
  state: z.enum(webhookStates, { error: webhookMessages.state }),
  url: webhookUrl,
  events: z
    .array(z.enum(webhookEvents, { error: webhookMessages.events }), { error: webhookMessages.events })
    .min(1, webhookMessages.events)
    // The same event ticked twice is still one subscription.
    .transform((events) => [...new Set(events)]),
};

/** POST /api/webhook/create-webhook */
export const createWebhookRequest = z.object(webhookFields, invalidArguments);
/** POST /api/webhook/update-webhook */
export const updateWebhookRequest = z.object(
  { ...webhookFields, webhook_id: positiveId(say.valid('Webhook')) },
  invalidArguments,
);
/** POST /api/webhook/delete-webhook */
export const deleteWebhookRequest = z.object({ webhook_id: positiveId(say.valid('Webhook')) }, invalidArguments);
/** POST /api/webhook/list-webhook: the ids, if given, may only name the session's own. */
export const listWebhookRequest = z
  .object(
    {
      merchant_id: positiveId(say.valid('merchant_id')).nullable().optional(),
      user_id: positiveId(say.valid('user_id')).optional(),
    },
    invalidArguments,
  )
  .nullish()
  .transform((body) => body ?? {});

/** POST /api/webhook/rotate-secret: a new signing secret; the old one signs beside it for a day. */
export const rotateSecretRequest = z.object({ webhook_id: positiveId(say.valid('Webhook')) }, invalidArguments);

/** POST /api/webhook/send-test-event: a made-up message of `event` (the webhook's first event if left out). */
export const sendTestEventRequest = z.object(
  {
    webhook_id: positiveId(say.valid('Webhook')),
    event: z.enum(webhookEvents, { error: webhookMessages.events }).optional(),
  },
  invalidArguments,
);

/**
 * The spec's Webhook (§3). Never carries the signing secret. `merchant_id`
 * is null for a personal user's webhook; `disabled_reason` says why the
 * deliveries turned it off (410 Gone, days of failures), null otherwise.
 */
export const webhook = z.object({
  webhook_id: z.number().int(),
  merchant_id: z.number().int().nullable(),
  user_id: z.number().int(),
  state: z.enum(webhookStates),
  url: z.string(),
  events: z.array(z.enum(webhookEvents)),
  disabled_reason: z.string().nullable(),
  /** Until when the secret before the last rotation still signs too; null when there is none. */
  previous_secret_until: z.string().nullable(),
});

export const webhookListResponse = successEnvelope({ webhook: z.array(webhook) });
export const webhookResponse = successEnvelope({ webhook });
export const webhookUpdatedResponse = successEnvelope({ message: z.string(), webhook });
/**
 * The signing secret (Standard Webhooks, "whsec_" + base64) is in this
 * answer and no other: the merchant copies it now or makes a new webhook.
 */
export const webhookCreatedResponse = successEnvelope({
  message: z.string(),
  data: z.object({ webhook, secret: z.string() }),
});
/** The rotated secret, like the created one, is in this answer and no other. */
export const webhookSecretRotatedResponse = webhookCreatedResponse;

export type Webhook = z.infer<typeof webhook>;
export type WebhookEvent = (typeof webhookEvents)[number];
export type CreateWebhookRequest = z.infer<typeof createWebhookRequest>;
export type UpdateWebhookRequest = z.infer<typeof updateWebhookRequest>;

/** Deliveries: one ledger event's message to one webhook; its id is the Standard Webhooks `webhook-id`. */
export const webhookDeliveryStates = ['pending', 'delivered', 'failed'] as const;
export const DELIVERY_PAGE_SIZE = 15;
export const DELIVERY_PAGE_MAX = 50;
const deliveryId = z.string({ error: say.valid('Delivery') }).regex(/^msg_[0-9a-f]{32}$/, say.valid('Delivery'));
const pageField = (label: string, min: number, max: number) =>
  z
    .number({ error: say.valid(label) })
    .int(say.valid(label))
    .min(min, say.valid(label))
    .max(max, say.valid(label));

/** POST /api/webhook/list-deliveries: a webhook's deliveries, newest first, each with every attempt. */
export const listDeliveriesRequest = z.object(
  {
    webhook_id: positiveId(say.valid('Webhook')),
    offset: pageField('offset', 0, 1_000_000).default(0),
    limit: pageField('limit', 1, DELIVERY_PAGE_MAX).default(DELIVERY_PAGE_SIZE),
  },
  invalidArguments,
);
/** POST /api/webhook/replay-delivery: send a delivery again, with the same webhook-id. */
export const replayDeliveryRequest = z.object({ delivery_id: deliveryId }, invalidArguments);

/** One POST of a delivery: when, the answer's status or why there was none, how long it took, the answer's first KiB. */
export const webhookAttempt = z.object({
  attempt: z.number().int(),
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  latency_ms: z.number().int(),
  response_body: z.string().nullable(),
});

export const webhookDelivery = z.object({
  delivery_id: z.string(),
  webhook_id: z.number().int(),
  event: z.enum(webhookEvents),
  transaction_id: z.string(),
  state: z.enum(webhookDeliveryStates),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** The message exactly as sent: {type, timestamp, data}. */
  payload: z.unknown(),
  attempts: z.array(webhookAttempt),
});

export const webhookDeliveryListResponse = successEnvelope({
  deliveries: z.array(webhookDelivery),
  total: z.number().int(),
});
export const webhookDeliveryResponse = successEnvelope({ delivery: webhookDelivery });
export const webhookDeliverySentResponse = successEnvelope({ message: z.string(), delivery: webhookDelivery });
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
