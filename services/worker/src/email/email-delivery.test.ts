import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { jobId, queueEmail, type OutgoingEmail } from '@peeks/jobs';
import { deliverEmail } from './email-delivery.ts';

const RECOVERY_CODE = '739146';
let database: TestDatabase;
let workers: Workers;
let smtp: SMTPServer;
const received: { to: string; raw: string }[] = [];
const logLines: string[] = [];
const log = createLogger(
  { LOG_LEVEL: 'debug' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  }),
);

/** A tiny SMTP receiver on loopback, so the real nodemailer path runs. */
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((each) => each.address).join(','),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  // A killed worker resets its connections; smtp-server reports that as an
  // 'error' event, which would otherwise be thrown as an uncaught exception.
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as { port: number };
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    log,
    config: readConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }),
  });
});
afterAll(async () => {
  await workers.stop();
  await new Promise<void>((resolve) => {
    smtp.close(resolve);
  });
  await database.drop();
});

const recoveryEmail = (recipient: string): OutgoingEmail => ({
  recipient,
  template: 'password-recovery-code',
  subject: 'Your Peeks Wallet recovery code',
  payload: { username: 'anne_tremblay', recovery_code: RECOVERY_CODE, expires_in_minutes: 15 },
});

const outboxRow = (emailId: number) =>
  database.db
    .selectFrom('email_outbox')
    .select(['sent_at', 'attempts'])
    .where('email_id', '=', emailId)
    .executeTakeFirst();

describe('e-mail delivery', () => {
  it('sends an outbox message over SMTP, marks it sent and counts the attempt', async () => {
    const emailId = await database.db
      .transaction()
      .execute((trx) => queueEmail(trx, workers.jobs, recoveryEmail('anne@example.com'), new Date()));
    await expect
      .poll(() => received.find((each) => each.to === 'anne@example.com'), { timeout: 15_000, interval: 100 })
      .toBeDefined();
    const message = received.find((each) => each.to === 'anne@example.com');
    expect(message?.raw).toContain('Subject: Your Peeks Wallet recovery code');
    expect(message?.raw).toContain(`Recovery code: ${RECOVERY_CODE}`);
    expect(message?.raw).toContain(`Message-ID: <outbox-${emailId}@peeks-wallet.example>`);
    await expect
      .poll(() => outboxRow(emailId), { timeout: 5_000, interval: 100 })
      .toMatchObject({ attempts: 1, sent_at: expect.any(Date) as Date });

    // The code was sealed in the outbox, opened for the message only, and is gone from the row once sent.
    const kept = await database.db
      .selectFrom('email_outbox')
      .select('payload')
      .where('email_id', '=', emailId)
      .executeTakeFirstOrThrow();
    expect(kept.payload).toEqual({ username: 'anne_tremblay', recovery_code: '[redacted]', expires_in_minutes: 15 });

    // The job again, as after a worker died before reporting it: a sent message is not sent twice.
    expect(await deliverEmail({ db: database.db, mailer: null, log }, emailId)).toBe('already sent');
    expect(received.filter((each) => each.to === 'anne@example.com')).toHaveLength(1);
  });

  it('keeps messages in the outbox without SMTP_URL, and logs them without their secrets', async () => {
    // Written outside any job, as a message of a server with no SMTP_URL would sit.
    const { email_id: emailId } = await database.db
      .insertInto('email_outbox')
      .values({
        recipient: 'bob@example.com',
        template: 'password-recovery-code',
        subject: 'Your Peeks Wallet recovery code',
        payload: JSON.stringify(recoveryEmail('bob@example.com').payload),
        created_at: new Date(),
      })
      .returning('email_id')
      .executeTakeFirstOrThrow();
    expect(await deliverEmail({ db: database.db, mailer: null, log }, emailId)).toBe('kept in the outbox');
    expect(await outboxRow(emailId)).toEqual({ sent_at: null, attempts: 0 });
    const kept = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.emailId === emailId);
    expect(kept).toMatchObject({
      level: 'debug',
      template: 'password-recovery-code',
      recipient: 'bob@example.com',
      payload: { username: 'anne_tremblay', recovery_code: '[redacted]' },
    });
  });

  it('never writes a recovery code to the log', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(RECOVERY_CODE))).toEqual([]);
  });

  it('prints a kept message with its code on the console only when asked to (development without SMTP)', async () => {
    const console: string[] = [];
    const developmentLog = createLogger(
      { LOG_LEVEL: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          console.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      }),
    );
    const { email_id: emailId } = await database.db
      .insertInto('email_outbox')
      .values({
        recipient: 'carol@example.com',
        template: 'password-recovery-code',
        subject: 'Your Peeks Wallet recovery code',
        payload: JSON.stringify(recoveryEmail('carol@example.com').payload),
        created_at: new Date(),
      })
      .returning('email_id')
      .executeTakeFirstOrThrow();
    await deliverEmail({ db: database.db, mailer: null, log: developmentLog }, emailId);
    expect(console.filter((line) => line.includes(RECOVERY_CODE))).toEqual([]);
    await deliverEmail({ db: database.db, mailer: null, log: developmentLog, printBodies: true }, emailId);
    expect(console.filter((line) => line.includes(`Recovery code: ${RECOVERY_CODE}`))).toHaveLength(1);
  });

  it('leaves neither message nor job behind when the transaction that queued it rolls back', async () => {
    let queued = 0;
    await expect(
      database.db.transaction().execute(async (trx) => {
        queued = await queueEmail(trx, workers.jobs, recoveryEmail('carol@example.com'), new Date());
        throw new Error('the request failed after queueing');
      }),
    ).rejects.toThrow('the request failed after queueing');
    expect(queued).toBeGreaterThan(0);
    expect(await outboxRow(queued)).toBeUndefined();
    const jobs = await sql<{
      count: number;
    }>`SELECT count(*)::int AS count FROM pgboss.job WHERE id = ${jobId('email-send', queued)}::uuid`.execute(
      database.db,
    );
    expect(jobs.rows[0]?.count).toBe(0);
  });

  it('refuses to queue outside a transaction', async () => {
    await expect(queueEmail(database.db, workers.jobs, recoveryEmail('dan@example.com'), new Date())).rejects.toThrow(
      'queueEmail needs the transaction',
    );
  });
});
