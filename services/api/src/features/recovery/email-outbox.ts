import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

export interface OutgoingEmail {
  recipient: string;
  template: string;
  subject: string;
  /** What the template fills in. It may hold a one-time code: never log it. */
  payload: Record<string, unknown>;
}

/**
 * Queues an e-mail; a worker delivers it later (platform §6). Takes the
 * caller's transaction, so a message goes out only if what it reports was
 * written.
 */
export async function queueEmail(db: Kysely<Database>, email: OutgoingEmail, now: Date): Promise<void> {
  await db
    .insertInto('email_outbox')
    .values({ recipient: email.recipient, template: email.template, subject: email.subject, payload: JSON.stringify(email.payload), created_at: now })
    .execute();
}
