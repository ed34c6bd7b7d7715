import type { CreateWebhookRequest, Webhook, WebhookEvent } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

// Every column but the secret: nothing read here can leak it.
const shown = ['webhook_id', 'merchant_id', 'user_id', 'state', 'url', 'events'] as const;

type WebhookFields = Pick<CreateWebhookRequest, 'state' | 'url' | 'events'>;

/** Stored events are always from the list: the request schema and nothing else wrote them. */
const toWebhook = (row: Omit<Webhook, 'events'> & { events: string[] }): Webhook => ({
  ...row,
  events: row.events as WebhookEvent[],
});

export async function listWebhooks(db: Kysely<Database>, merchantId: number): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(shown)
    .where('merchant_id', '=', merchantId)
    .orderBy('webhook_id')
    .execute();
  return rows.map(toWebhook);
}

export async function findWebhook(
  db: Kysely<Database>,
  merchantId: number,
  webhookId: number,
): Promise<Webhook | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select(shown)
    .where('merchant_id', '=', merchantId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row && toWebhook(row);
}

export async function createWebhook(
  db: Kysely<Database>,
  owner: { merchantId: number; userId: number },
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

/** The merchant's webhook, changed (its secret kept); undefined when it has no such webhook. */
export async function updateWebhook(
  db: Kysely<Database>,
  merchantId: number,
  webhookId: number,
  input: WebhookFields,
  now: Date,
): Promise<Webhook | undefined> {
  const row = await db
    .updateTable('webhooks')
    .set({ state: input.state, url: input.url, events: input.events, updated_at: now })
    .where('merchant_id', '=', merchantId)
    .where('webhook_id', '=', webhookId)
    .returning(shown)
    .executeTakeFirst();
  return row && toWebhook(row);
}

export async function deleteWebhook(db: Kysely<Database>, merchantId: number, webhookId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('merchant_id', '=', merchantId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
