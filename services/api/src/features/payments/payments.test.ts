import { errorCodes, transactionResponse } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { moveMoney, presentTransaction } from './index.ts';

/** A bare send of coins, through the plugin alone: what money routes are built on. */
const sendRequest = z.object({ to_user_id: z.number().int(), amount: z.number().int() });

let subject: TestApp;
let ann: SignedIn;
let bob: SignedIn;
const owner = (who: SignedIn) => userOwnerId(who.user.user_id);

beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    extend: (app) => {
      // A test's own route, not part of the API: hidden from the document, so it needs no description.
      app.post('/api/test/send', { schema: { hide: true } }, async (request) => {
        const { to_user_id, amount } = sendRequest.parse(request.body);
        const from = userOwnerId(signedIn(request).userId);
        const outcome = await moveMoney(request, from, (txId) => ({
          type: 'Transfer',
          txId,
          kind: 'P2P',
          fromOwnerId: from,
          toOwnerId: userOwnerId(to_user_id),
          amount,
          fee: 0,
          currency: 'CON',
          memo: null,
        }));
        return { response: 'success' as const, transaction: await presentTransaction(app.db, from, outcome.record) };
      });
    },
  });
  ann = await signedUp(subject, 'personal');
  bob = await signedUp(subject, 'personal');
  await fund(subject, owner(ann), 10_000);
});
afterAll(() => subject.close());

const send = (from: SignedIn, body: unknown, key?: string) =>
  from.browser.request('POST', '/api/test/send', body, key === undefined ? {} : { 'idempotency-key': key });
const balanceOf = async (who: SignedIn) =>
  (await walletsOf(subject.database.db, owner(who))).find((wallet) => wallet.walletId === walletIdOf(owner(who), 'CON'))
    ?.available;

describe('the ledger plugin', () => {
  it('opens every wallet at registration', async () => {
    const wallets = await walletsOf(subject.database.db, owner(bob));
    expect(wallets.map((wallet) => wallet.currency).sort()).toEqual(['CAD', 'CON', 'IMP', 'USD']);
  });

  it('moves money once per Idempotency-Key, and answers a retry with the same transaction', async () => {
    const before = await balanceOf(bob);
    const first = await send(ann, { to_user_id: bob.user.user_id, amount: 300 }, 'retry-me');
    const retry = await send(ann, { to_user_id: bob.user.user_id, amount: 300 }, 'retry-me');
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    const [one, two] = [first, retry].map((response) => transactionResponse.parse(response.json()).transaction);
    expect(two?.tx_id).toBe(one?.tx_id);
    expect(one).toMatchObject({
      debit_credit: 'D',
      amount: 300,
      currency: 'CON',
      state: 'completed',
      user_id: ann.user.user_id,
    });
    expect(await balanceOf(bob)).toBe((before ?? 0) + 300);
  });

  it('tells a replay from the first answer with Idempotent-Replayed: true', async () => {
    const body = { to_user_id: bob.user.user_id, amount: 5 };
    const first = await send(ann, body, 'replay-header');
    const replay = await send(ann, body, 'replay-header');
    const unkeyed = await send(ann, body);
    expect([first.statusCode, replay.statusCode, unkeyed.statusCode]).toEqual([200, 200, 200]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(unkeyed.headers['idempotent-replayed']).toBeUndefined();
    const reused = await send(ann, { ...body, amount: 6 }, 'replay-header');
    expect(reused.statusCode).toBe(409);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a key reused for a different request with 409 and moves nothing', async () => {
    await send(ann, { to_user_id: bob.user.user_id, amount: 100 }, 'one-purpose');
    const before = await balanceOf(bob);
    const reused = await send(ann, { to_user_id: bob.user.user_id, amount: 999 }, 'one-purpose');
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ errors: [{ code: errorCodes.idempotencyKeyReused }] });
    expect(await balanceOf(bob)).toBe(before);
  });

  it('lets only one of two different requests racing with one key through', async () => {
    const before = await balanceOf(bob);
    const answers = await Promise.all(
      [100, 200].map((amount) => send(ann, { to_user_id: bob.user.user_id, amount }, 'raced-key')),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const moved = transactionResponse.parse(answers.find((answer) => answer.statusCode === 200)?.json()).transaction
      .amount;
    expect(await balanceOf(bob)).toBe((before ?? 0) + moved);
  });

  it("keeps two callers' keys apart", async () => {
    await fund(subject, owner(bob), 500);
    const annSends = await send(ann, { to_user_id: bob.user.user_id, amount: 10 }, 'same-key');
    const bobSends = await send(bob, { to_user_id: ann.user.user_id, amount: 20 }, 'same-key');
    expect([annSends.statusCode, bobSends.statusCode]).toEqual([200, 200]);
    expect(transactionResponse.parse(bobSends.json()).transaction.tx_id).not.toBe(
      transactionResponse.parse(annSends.json()).transaction.tx_id,
    );
  });

  it('answers a rule the ledger refuses with 422 and its code, and a missing wallet with 404', async () => {
    const broke = await send(bob, { to_user_id: ann.user.user_id, amount: 40_000 });
    expect(broke.statusCode).toBe(422);
    expect(broke.json()).toMatchObject({ response: 'error', errors: [{ code: errorCodes.insufficientFunds }] });
    const nobody = await send(ann, { to_user_id: 987_654, amount: 1 });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ errors: [{ code: errorCodes.walletNotFound }] });
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const response = await send(ann, { to_user_id: bob.user.user_id, amount: 1 }, 'has space');
    expect(response.statusCode).toBe(400);
  });
});
