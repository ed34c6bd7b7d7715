import {
  emailOutboxResponse,
  errorCodes,
  eventLogResponse,
  ledgerVerificationResponse,
  operationsOverviewResponse,
  operatorAuditResponse,
  peopleResponse,
  personResponse,
} from '@peeks/contracts';
import { tamper } from '@peeks/db/testing';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { enteredDeposit, signedUpOperator } from '../../testing/operations.ts';
import { expectRefusal } from '../../testing/requests.ts';

let subject: TestApp;
let operator: SignedIn;
let ann: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  operator = await signedUpOperator(subject);
  ann = await signedUp(subject, 'personal');
  bob = await signedUp(subject, 'personal');
  await fund(subject, userOwnerId(ann.user.user_id), 100_00);
  // Money from another person is held: a hold releasing within the day.
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'Transfer',
      txId: `p2p-${randomUUID()}`,
      kind: 'P2P',
      fromOwnerId: userOwnerId(ann.user.user_id),
      toOwnerId: userOwnerId(bob.user.user_id),
      amount: 25_00,
      fee: 0,
      currency: 'CON',
      memo: null,
    },
    subject.app.ledgerSettings,
  );
  await enteredDeposit(subject, userOwnerId(bob.user.user_id));
});
afterAll(() => subject.close());

const get = (url: string) => operator.browser.get(url);

describe('the overview', () => {
  it("charts today's movements by type, deposits by state and the holds releasing in the next day", async () => {
    const response = await get('/api/operations/overview');
    expect(response.statusCode, response.body).toBe(200);
    const overview = operationsOverviewResponse.parse(response.json());
    const today = new Date().toISOString().slice(0, 10);
    expect(overview.days).toBe(30);
    expect(overview.daily_volume).toContainEqual({
      day: today,
      type: 'transfer',
      currency: 'CON',
      count: 1,
      amount: 25_00,
    });
    expect(overview.daily_volume.find((row) => row.type === 'correction')?.amount).toBeGreaterThanOrEqual(100_00);
    expect(overview.deposits_by_state).toContainEqual({ method: 'interac', state: 'pending', count: 1 });
    expect(overview.holds_releasing.reduce((sum, row) => sum + row.amount, 0)).toBe(25_00);
    expect(overview.webhook_deliveries).toEqual([]);
  });
});

describe('people', () => {
  it('finds a user by the start of their username or e-mail, in any case, a LIKE wildcard taken literally', async () => {
    const find = async (q: string) =>
      peopleResponse
        .parse((await get(`/api/operations/people?q=${encodeURIComponent(q)}`)).json())
        .people.map((person) => person.user_id);
    expect(await find(ann.user.username.toUpperCase())).toEqual([ann.user.user_id]);
    expect(await find(ann.user.email)).toEqual([ann.user.user_id]);
    expect(await find('%')).toEqual([]);
    expectRefusal(await get('/api/operations/people?q='), 400, undefined, 'empty search');
  });

  it("shows a person's wallets, holds, transactions, deposits and live sessions; 404 for no such user", async () => {
    const response = await get(`/api/operations/person?user_id=${bob.user.user_id}`);
    expect(response.statusCode, response.body).toBe(200);
    const view = personResponse.parse(response.json());
    expect(view.person.username).toBe(bob.user.username);
    expect(view.wallets.find((wallet) => wallet.currency === 'CON')).toMatchObject({
      total: 25_00,
      available: 25_00,
      withdrawable: 0,
    });
    expect(view.holds).toHaveLength(1);
    expect(view.holds[0]).toMatchObject({ amount: 25_00, currency: 'CON' });
    expect(view.transactions.map((tx) => [tx.type, tx.debit_credit])).toEqual([
      ['deposit', 'C'],
      ['transfer', 'C'],
    ]);
    expect(view.deposits.map((tx) => tx.state)).toEqual(['pending']);
    expect(view.sessions.length).toBeGreaterThanOrEqual(1);
    expect(view.sessions[0]?.session_id).toMatch(/^[0-9a-f]{24}$/);
    expectRefusal(await get('/api/operations/person?user_id=999999'), 404, errorCodes.userNotFound, 'unknown user');
  });
});

describe('the event log', () => {
  it("shows each event's previous hash and whether its link verifies, and filters by actor", async () => {
    const stream = `ledger-`;
    const page = eventLogResponse.parse((await get(`/api/operations/events?stream=${stream}&limit=5`)).json());
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events.every((event) => event.link_verifies)).toBe(true);
    const first = page.events.at(-1);
    if (!first) throw new Error('no event');

    await tamper(
      subject.database.db,
      sql`UPDATE events SET data = data || '{"tampered": true}'::jsonb WHERE position = ${first.position}`,
    );
    const after = eventLogResponse.parse((await get(`/api/operations/events?stream=${stream}&limit=5`)).json());
    expect(after.events.find((event) => event.position === first.position)?.link_verifies).toBe(false);
    await tamper(
      subject.database.db,
      sql`UPDATE events SET data = data - 'tampered' WHERE position = ${first.position}`,
    );
    const restored = eventLogResponse.parse((await get(`/api/operations/events?stream=${stream}&limit=5`)).json());
    expect(restored.events.find((event) => event.position === first.position)?.link_verifies).toBe(true);
  });
});

describe('the audit of operators', () => {
  it('lists what each operator did, newest first, with the reason, and nothing done by others', async () => {
    const correction = await operator.browser.request('POST', '/api/operations/correct-balance', {
      user_id: ann.user.user_id,
      currency: 'CON',
      amount: 5_00,
      reason: 'Goodwill for a late deposit',
    });
    expect(correction.statusCode, correction.body).toBe(200);
    const audit = operatorAuditResponse.parse((await get('/api/operations/audit?limit=10')).json());
    expect(audit.actions[0]).toMatchObject({
      operator_id: userOwnerId(operator.user.user_id),
      operator_username: operator.user.username,
      type: 'BalanceCorrected',
      reason: 'Goodwill for a late deposit',
    });
    // ann's transfer and the test funding were not an operator's.
    expect(audit.actions.every((action) => action.operator_id === userOwnerId(operator.user.user_id))).toBe(true);
  });
});

describe('ledger verification', () => {
  it('reports its progress as it runs and the finished run with every ledger event replayed', async () => {
    const started = await operator.browser.request('POST', '/api/operations/ledger-verify', {});
    expect(started.statusCode, started.body).toBe(200);
    await expect
      .poll(
        async () =>
          ledgerVerificationResponse.parse((await get('/api/operations/ledger-verify')).json()).verification.state,
        { timeout: 30_000, interval: 50 },
      )
      .toBe('finished');
    const { verification } = ledgerVerificationResponse.parse((await get('/api/operations/ledger-verify')).json());
    expect(verification.ok).toBe(true);
    expect(verification.progress?.stage).toBe('invariants');
    expect(verification.progress?.events_total).toBeGreaterThan(0);
    expect(verification.progress?.events_replayed).toBe(verification.progress?.events_total);
  });
});

describe('the outbox without bodies', () => {
  it('answers no message text unless the app is told to', async () => {
    const { emails } = emailOutboxResponse.parse((await get('/api/operations/emails')).json());
    expect(emails.every((email) => email.body === null)).toBe(true);
  });
});
