import type { Database } from '@peeks/db';
import type { LedgerJob, LedgerJobs } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { sealEmailSecrets } from './email-secrets.ts';
import { jobId } from './queue.ts';
import { EMAIL_SEND_QUEUE } from './queues.ts';

export interface OutgoingEmail {
  recipient: string;
  template: string;
  subject: string;
  /** What the template fills in. It may hold a one-time code: never log it. */
  payload: Record<string, unknown>;
}

/**
 * The message's text: the subject, then each field the template fills in,
 * one per line, under its name in the reader's language where the payload
 * gives one (`labels`), else under its key in words. A field without a
 * value is left out.
 */
export function renderEmail(subject: string, payload: Record<string, unknown>): string {
  const { labels, ...fields } = payload;
  const named = (key: string) =>
    (isTexts(labels) ? labels[key] : undefined) ??
    key.replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase());
  const lines = Object.entries(fields)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${named(key)}: ${String(value)}`);
  return [subject, '', ...lines, '', 'Peeks Wallet'].join('\n');
}

const isTexts = (value: unknown): value is Record<string, string | undefined> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function emailSendJob(emailId: number): LedgerJob {
  return { queue: EMAIL_SEND_QUEUE.name, id: jobId('email-send', emailId), data: { emailId } };
}

/**
 * Writes an e-mail to the outbox and enqueues the job that sends it, both in
 * the caller's transaction: a message goes out only if what it reports was
 * written, and no outbox row lacks its job. Every writer of the outbox goes
 * through here.
 */
export async function queueEmail(
  trx: Kysely<Database>,
  jobs: Pick<LedgerJobs, 'enqueue'>,
  email: OutgoingEmail,
  now: Date,
): Promise<number> {
  if (!trx.isTransaction) throw new Error('queueEmail needs the transaction that writes what the e-mail reports');
  const { email_id: emailId } = await trx
    .insertInto('email_outbox')
    .values({
      recipient: email.recipient,
      template: email.template,
      subject: email.subject,
      payload: JSON.stringify(await sealEmailSecrets(trx, email.payload)),
      created_at: now,
    })
    .returning('email_id')
    .executeTakeFirstOrThrow();
  await jobs.enqueue(trx, [emailSendJob(emailId)]);
  return emailId;
}
