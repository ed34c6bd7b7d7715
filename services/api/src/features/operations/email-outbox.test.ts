import { emailOutboxResponse } from '@peeks/contracts';
import { jobId, openEmailSecrets } from '@peeks/jobs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions } from '../../testing/merchants.ts';
import { signedUpOperator } from '../../testing/operations.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    rateLimits: { ...testAppOptions.rateLimits, recovery: { max: 1000, timeWindow: 60_000 } },
  });
});
afterAll(() => subject.close());

/** A user who asked for a recovery code: an outbox message that carries a secret. */
async function recoveryRequested() {
  const user = await signedUp(subject, 'personal');
  const stranger = await subject.browser();
  expect((await stranger.post('/api/user/send-recovery-code', { username: user.user.username })).statusCode).toBe(200);
  const row = await subject.database.db
    .selectFrom('email_outbox')
    .select(['email_id', 'payload'])
    .where('recipient', '=', user.user.email)
    .executeTakeFirstOrThrow();
  const opened = await openEmailSecrets(subject.database.db, row.payload as Record<string, unknown>);
  return { user, emailId: row.email_id, code: String(opened.recovery_code) };
}

describe('the e-mail outbox', () => {
  it('gets a send job with every message, in the transaction that writes it', async () => {
    const { emailId } = await recoveryRequested();
    const { rows } = await sql<{
      name: string;
      data: unknown;
    }>`SELECT name, data FROM pgboss.job WHERE id = ${jobId('email-send', emailId)}::uuid`.execute(subject.database.db);
    expect(rows).toEqual([{ name: 'email-send', data: { emailId } }]);
  });

  it('is readable by finance operators, newest first, with secrets redacted', async () => {
    const { user, emailId, code } = await recoveryRequested();
    const operator = await signedUpOperator(subject);
    const response = await operator.browser.get(
      `/api/operations/emails?state=unsent&recipient=${encodeURIComponent(user.user.email)}`,
    );
    expect(response.statusCode).toBe(200);
    const { emails, total } = emailOutboxResponse.parse(response.json());
    expect(total).toBe(1);
    expect(emails).toEqual([
      {
        email_id: emailId,
        recipient: user.user.email,
        template: 'password-recovery-code',
        subject: 'Your Peeks Wallet recovery code',
        payload: { username: user.user.username, recovery_code: '[redacted]', expires_in_minutes: 15 },
        body: null,
        created_at: expect.any(String) as string,
        sent_at: null,
        attempts: 0,
      },
    ]);
    expect(response.body).not.toContain(code);
    expect((await operator.browser.get('/api/operations/emails?state=sent')).json()).toMatchObject({
      emails: [],
      total: 0,
    });
  });

  it("shows an unsent message's text, code included, only when the app is told to (development without SMTP)", async () => {
    const withBodies = await createTestApp({
      ...testAppOptions,
      database: subject.database,
      outboxBodies: true,
      rateLimits: { ...testAppOptions.rateLimits, recovery: { max: 1000, timeWindow: 60_000 } },
    });
    try {
      const user = await signedUp(withBodies, 'personal');
      const stranger = await withBodies.browser();
      await stranger.post('/api/user/send-recovery-code', { username: user.user.username });
      const { payload } = await withBodies.database.db
        .selectFrom('email_outbox')
        .select('payload')
        .where('recipient', '=', user.user.email)
        .executeTakeFirstOrThrow();
      // Sealed at rest; the development view shows it opened, as the sender would send it.
      const { recovery_code: code } = (await openEmailSecrets(
        withBodies.database.db,
        payload as Record<string, unknown>,
      )) as { recovery_code: string };
      expect(code).toMatch(/^\d{6}$/);
      const operator = await signedUpOperator(withBodies);
      const { emails } = emailOutboxResponse.parse(
        (await operator.browser.get(`/api/operations/emails?recipient=${encodeURIComponent(user.user.email)}`)).json(),
      );
      expect(emails[0]?.payload).toMatchObject({ recovery_code: '[redacted]' });
      expect(emails[0]?.body).toContain(`Recovery code: ${code}`);
    } finally {
      await withBodies.close();
    }
  });

  it('refuses a bad filter with the error envelope', async () => {
    const operator = await signedUpOperator(subject);
    const response = await operator.browser.get('/api/operations/emails?state=bounced');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ response: 'error', errors: [{ field: 'state' }] });
  });
});
