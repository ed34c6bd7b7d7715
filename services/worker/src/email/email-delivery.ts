import type { Database } from '@peeks/db';
import { scrubSecrets, type Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { createTransport } from 'nodemailer';
import type { PgBoss } from 'pg-boss';
import { workEach } from '../job.ts';
import { EMAIL_SEND_QUEUE, openEmailSecrets, renderEmail, spentEmailPayload } from '@peeks/jobs';

/** One message as it leaves the outbox. */
export interface EmailMessage {
  /** Stable per outbox row, so a receiver can drop a copy sent again after a crash. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

/** Sends through the SMTP server of SMTP_URL (smtp://user:password@host:port, or smtps:// for TLS from the start). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
      });
    },
    close() {
      transport.close();
    },
  };
}

export interface EmailDeliveryDeps {
  db: Kysely<Database>;
  mailer: Mailer | null;
  log: Logger;
  now?: () => Date;
  /** Development without SMTP_URL: print a kept message's text, secrets and all, on the console. */
  printBodies?: boolean;
}

export const messageIdOf = (emailId: number) => `<outbox-${emailId}@peeks-wallet.example>`;

export type DeliveryResult = 'sent' | 'already sent' | 'kept in the outbox' | 'gone';

/**
 * Sends one outbox row. The attempt is counted before the SMTP call, in its
 * own statement, so a send that crashes the worker still shows. SMTP has no
 * idempotency key: a worker that dies after the server accepted the message
 * and before `sent_at` is written sends it again on the retry, with the same
 * Message-ID. Without a mailer (no SMTP_URL) the message stays in the
 * outbox, and what the log says of it leaves out every secret-named field
 * (recovery codes, security answers) and the rendered text that carries them,
 * unless `printBodies` (development only) asks for the text on the console,
 * so a newcomer can finish a password recovery without a mail server.
 */
export async function deliverEmail(deps: EmailDeliveryDeps, emailId: number): Promise<DeliveryResult> {
  const { db, mailer, log } = deps;
  const email = await db
    .selectFrom('email_outbox')
    .select(['email_id', 'recipient', 'template', 'subject', 'payload', 'sent_at'])
    .where('email_id', '=', emailId)
    .executeTakeFirst();
  if (!email) return 'gone';
  if (email.sent_at) return 'already sent';
  const payload = email.payload as Record<string, unknown>;
  if (!mailer) {
    log.debug(
      {
        emailId,
        recipient: email.recipient,
        template: email.template,
        subject: email.subject,
        payload: scrubSecrets(payload),
      },
      'e-mail kept in the outbox: SMTP_URL is not set',
    );
    if (deps.printBodies === true)
      log.info(
        `e-mail to ${email.recipient} kept in the outbox (development, no SMTP_URL):\n${renderEmail(email.subject, await openEmailSecrets(db, payload))}`,
      );
    return 'kept in the outbox';
  }
  await db
    .updateTable('email_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('email_id', '=', emailId)
    .execute();
  await mailer.send({
    messageId: messageIdOf(emailId),
    to: email.recipient,
    subject: email.subject,
    text: renderEmail(email.subject, await openEmailSecrets(db, payload)),
  });
  await db
    .updateTable('email_outbox')
    .set({ sent_at: (deps.now ?? (() => new Date()))(), payload: JSON.stringify(spentEmailPayload(payload)) })
    .where('email_id', '=', emailId)
    .where('sent_at', 'is', null)
    .execute();
  return 'sent';
}

export async function runEmailDelivery(boss: PgBoss, deps: EmailDeliveryDeps): Promise<void> {
  await workEach<{ emailId: number }>(boss, EMAIL_SEND_QUEUE.name, async (job) => {
    const outcome = await deliverEmail(deps, job.data.emailId);
    deps.log.info({ emailId: job.data.emailId, outcome }, 'e-mail delivery');
  });
}
