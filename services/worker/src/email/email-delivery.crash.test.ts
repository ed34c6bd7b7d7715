import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { openJobQueue, queueEmail, type JobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';

const EMAILS = 60;
let database: TestDatabase;
let queue: { jobs: JobQueue; close: () => Promise<void> };
let worker: WorkerProcess | undefined;
let smtp: SMTPServer;
let smtpUrl: string;
/** Message-IDs as the receiver accepted them, copies included. */
const received: string[] = [];

/**
 * Sixty outbox messages and an SMTP receiver on loopback that takes 50 ms a
 * message; a worker process is SIGKILLed while it sends them and another is
 * started. Every message must arrive and be marked sent; SMTP has no
 * idempotency key, so one the receiver accepted just before the kill may
 * arrive twice, with the same Message-ID, and never more.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        setTimeout(() => {
          received.push(/^Message-ID: (.*)$/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1]?.trim() ?? 'none');
          callback();
        }, 50);
      });
    },
  });
  // A killed worker resets its connections; smtp-server reports that as an
  // 'error' event, which would otherwise be thrown as an uncaught exception.
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  for (let index = 0; index < EMAILS; index++) {
    await database.db
      .transaction()
      .execute((trx) =>
        queueEmail(
          trx,
          queue.jobs,
          { recipient: `user${index}@example.com`, template: 'test', subject: `Message ${index}`, payload: { index } },
          new Date(),
        ),
      );
  }
});
afterAll(async () => {
  await worker?.kill();
  await queue.close();
  await new Promise<void>((resolve) => {
    smtp.close(resolve);
  });
  await database.drop();
});

const unsent = async () =>
  (await database.db.selectFrom('email_outbox').select('email_id').where('sent_at', 'is', null).execute()).length;

describe('e-mail delivery when the worker is killed', () => {
  it('sends every message across a SIGKILL and a restart, a copy at most for one cut off mid-send', async () => {
    worker = await startWorkerProcess({ databaseUrl: database.url, env: { SMTP_URL: smtpUrl } });
    await expect.poll(() => received.length, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    expect(await unsent()).toBeGreaterThan(0);

    worker = await startWorkerProcess({ databaseUrl: database.url, env: { SMTP_URL: smtpUrl } });
    await expect.poll(unsent, { timeout: 60_000, interval: 250 }).toBe(0);
    const copies = new Map<string, number>();
    for (const messageId of received) copies.set(messageId, (copies.get(messageId) ?? 0) + 1);
    const ids = (await database.db.selectFrom('email_outbox').select('email_id').execute()).map(
      (row) => `<outbox-${row.email_id}@peeks-wallet.example>`,
    );
    expect([...copies.keys()].sort()).toEqual(ids.sort());
    expect(Math.max(...copies.values())).toBeLessThanOrEqual(2);
  }, 150_000);
});
