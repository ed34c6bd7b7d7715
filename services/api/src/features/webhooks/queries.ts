import type { CreateWebhookRequest, Webhook, WebhookEvent } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { ExpressionBuilder, Kysely } from 'kysely';

// Every column but the secrets: nothing read here can leak them.
const shown = [
  'webhook_id',
  'merchant_id',
  'user_id',
  'state',
  'url',
  'events',
  'disabled_reason',
  'previous_secret_until',
] as const;

type WebhookFields = Pick<CreateWebhookRequest, 'state' | 'url' | 'events'>;

/**
 * Whose webhooks a caller sees: a merchant's (any member with the webhooks
 * permission), or a personal user's own, which have no merchant.
 */
export interface WebhookOwner {
  merchantId: number | null;
  userId: number;
}

/** The owner's webhooks only, so another's is simply not found. */
export function ownedBy(owner: WebhookOwner) {
  return (eb: ExpressionBuilder<Database, 'webhooks'>) =>
    owner.merchantId === null
      ? eb.and([eb('webhooks.merchant_id', 'is', null), eb('webhooks.user_id', '=', owner.userId)])
      : eb('webhooks.merchant_id', '=', owner.merchantId);
}

type Row = {
  webhook_id: number;
  merchant_id: number | null;
  user_id: number;
  state: Webhook['state'];
  url: string;
  events: string[];
  disabled_reason: string | null;
  previous_secret_until: Date | null;
};

/** Stored events are always from the list: the request schema and nothing else wrote them. */
const toWebhook = (row: Row): Webhook => ({
  ...row,
  events: row.events as WebhookEvent[],
  previous_secret_until: row.previous_secret_until?.toISOString() ?? null,
});

export async function listWebhooks(db: Kysely<Database>, owner: WebhookOwner): Promise<Webhook[]> {
  const rows = await db.selectFrom('webhooks').select(shown).where(ownedBy(owner)).orderBy('webhook_id').execute();
  return rows.map(toWebhook);
}

export async function findWebhook(
  db: Kysely<Database>,
  owner: WebhookOwner,
  webhookId: number,
): Promise<Webhook | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select(shown)
    .where(ownedBy(owner))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row && toWebhook(row);
}

export async function createWebhook(
  db: Kysely<Database>,
  owner: WebhookOwner,
  input: WebhookFields,
  secret: string,
  now: Date,
): Promise<Webhook> {
  const row = await db
    .insertInto('webhooks')
    .values({
      merchant_id: owner.merchantId,
      user_id: owner.userId,
      state: input.state,
      url: input.url,
      events: input.events,
      secret,
      created_at: now,
      updated_at: now,
    })
    .returning(shown)
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

/** The owner's webhook, changed (its secret kept); undefined when it has no such webhook. */
export async function updateWebhook(
  db: Kysely<Database>,
  owner: WebhookOwner,
  webhookId: number,
  input: WebhookFields,
  now: Date,
): Promise<Webhook | undefined> {
  const row = await db
    .updateTable('webhooks')
    .set({
      state: input.state,
      url: input.url,
      events: input.events,
      updated_at: now,
      // Enabled again by its owner: the worker's reason no longer holds.
      ...(input.state === 'enabled' ? { disabled_reason: null, failing_since: null } : {}),
    })
    .where(ownedBy(owner))
    .where('webhook_id', '=', webhookId)
    .returning(shown)
    .executeTakeFirst();
  return row && toWebhook(row);
}

/**
 * A new signing secret; the current one becomes the previous, signing beside
 * the new one until `previousUntil`. Undefined when the owner has no such webhook.
 */
export async function rotateSecret(
  db: Kysely<Database>,
  owner: WebhookOwner,
  webhookId: number,
  secret: string,
  previousUntil: Date,
  now: Date,
): Promise<Webhook | undefined> {
  const row = await db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_until: previousUntil,
      secret,
      updated_at: now,
    }))
    .where(ownedBy(owner))
    .where('webhook_id', '=', webhookId)
    .returning(shown)
    .executeTakeFirst();
  return row && toWebhook(row);
}

export async function deleteWebhook(db: Kysely<Database>, owner: WebhookOwner, webhookId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where(ownedBy(owner))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
