import { auditListResponse, coinTrailResponse, transactionResponse } from '@peeks/contracts';
import { merchantOwnerId, userOwnerId, walletIdOf } from '@peeks/ledger';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../plugins/sessions.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { signedUpOperator } from '../../testing/operations.ts';

/**
 * Issue 33's finding 5, as the probe saw it, over real HTTP on loopback: a
 * receiver's (or merchant's) audit list of a send showed the sender's parent
 * coin, `…:wallet:user-6:CON:CON:10000`, their wallet id and their balance.
 */
const FUNDED = 12_345;

let subject: TestApp;
let base: string;
let ann: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  const address = subject.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  base = `http://127.0.0.1:${String(address.port)}`;
  ann = await signedUp(subject, 'personal');
  // One coin of 12,345: every send out of it splits it, so its value is the sender's whole balance.
  await fund(subject, userOwnerId(ann.user.user_id), FUNDED);
});
afterAll(() => subject.close());

/** A request as the web app sends it, with the caller's session cookie and CSRF token. */
async function call(who: SignedIn, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: `${SESSION_COOKIE}=${who.browser.cookie ?? ''}`,
      'x-csrf-token': who.browser.csrfToken ?? '',
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

async function send(from: SignedIn, to: SignedIn, amount: number): Promise<string> {
  const answer = await call(from, 'POST', '/api/account/send-fund', { guser_id: to.user.guser_id, amount });
  return transactionResponse.parse(JSON.parse(answer)).transaction.tx_id;
}

async function auditText(who: SignedIn, txId: string) {
  const text = await call(who, 'GET', `/api/wallet/list-audit?reference_no=${txId}`);
  return { text, ledgers: auditListResponse.parse(JSON.parse(text)).ledgers };
}

/** `user-6` but not `user-61`. */
const ownerIdIn = (ownerId: string) => new RegExp(`${ownerId}(?!\\d)`);
const valueOf = (fromSerial: string | null) => (fromSerial === null ? null : Number(fromSerial.split(':').at(-1)));

describe('GET /api/wallet/list-audit of a send', () => {
  let bob: SignedIn;
  let txId: string;
  const before = FUNDED;
  beforeAll(async () => {
    bob = await signedUp(subject, 'personal');
    txId = await send(ann, bob, 300);
  });

  it("shows the receiver the coin received and neither the sender's id nor their balance", async () => {
    const { text, ledgers } = await auditText(bob, txId);
    const sender = userOwnerId(ann.user.user_id);
    expect(text).not.toMatch(ownerIdIn(sender));
    expect(text, 'no wallet of anyone: the one account named would be the sender').not.toContain('wallet:');
    for (const hidden of [before, before - 300]) expect(text).not.toContain(`:CON:${String(hidden)}"`);
    expect(ledgers.map((line) => [line.action, valueOf(line.from_serial), line.from_another_wallet])).toEqual([
      ['SPLIT', null, true],
      ['SPLIT_INTO', null, true],
      ['SPLIT_INTO', null, true],
      ['MOVE', 300, true],
    ]);
    const [received] = (await bob.browser.get('/api/wallet/list-coins')).json<{ coins: { serial: string }[] }>().coins;
    expect(ledgers.at(-1)?.from_serial).toBe(`${received?.serial ?? ''}::CON:300`);
  });

  it("still shows the sender every serial they held, in the spec's form", async () => {
    const { ledgers } = await auditText(ann, txId);
    const annWallet = walletIdOf(userOwnerId(ann.user.user_id), 'CON');
    expect(ledgers.map((line) => line.from_another_wallet)).toEqual([false, false, false, false]);
    expect(ledgers.map((line) => line.from_serial?.split(':').slice(1))).toEqual([
      [...annWallet.split(':'), 'CON', String(before)],
      ['', 'CON', '300'],
      ['', 'CON', String(before - 300)],
      [...annWallet.split(':'), 'CON', '300'],
    ]);
  });

  it("leaves an operator's coin trail whole", async () => {
    const operator = await signedUpOperator(subject);
    const [received] = (await bob.browser.get('/api/wallet/list-coins')).json<{ coins: { serial: string }[] }>().coins;
    const text = await call(operator, 'GET', `/api/operations/coin-trail?serial=${received?.serial ?? ''}`);
    const { trail } = coinTrailResponse.parse(JSON.parse(text));
    const annWallet = walletIdOf(userOwnerId(ann.user.user_id), 'CON');
    expect(trail.find((step) => step.action === 'SPLIT')).toMatchObject({
      from_account: annWallet,
      value: before,
      from_serial: expect.stringContaining(`:${annWallet}:CON:${String(before)}`) as unknown,
    });
    expect(trail.at(-1)).toMatchObject({ action: 'MOVE', from_account: annWallet, value: 300 });
  });
});

describe("a merchant's audit list of a customer's payment", () => {
  it("shows nothing of the customer's coins", async () => {
    const [customer, shop] = [await signedUp(subject, 'personal'), await signedUp(subject, 'business')];
    await fund(subject, userOwnerId(customer.user.user_id), FUNDED);
    const txId = await send(customer, shop, 700);
    const { text, ledgers } = await auditText(shop, txId);
    expect(text).not.toMatch(ownerIdIn(userOwnerId(customer.user.user_id)));
    expect(text).not.toContain('wallet:');
    for (const hidden of [FUNDED, FUNDED - 700]) expect(text).not.toContain(`:CON:${String(hidden)}"`);
    expect(ledgers.map((line) => [line.action, valueOf(line.from_serial), line.from_another_wallet])).toEqual([
      ['SPLIT', null, true],
      ['SPLIT_INTO', null, true],
      ['SPLIT_INTO', null, true],
      ['MOVE', 700, true],
    ]);
    const merchantWallet = walletIdOf(merchantOwnerId(shop.merchantId), 'CON');
    expect(
      await subject.database.db.selectFrom('coins').select('value').where('holder', '=', merchantWallet).execute(),
    ).toEqual([{ value: 700 }]);
  });
});
