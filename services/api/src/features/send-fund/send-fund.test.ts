import { errorCodes, qrPayload, sendFundForQr, transactionResponse } from '@peeks/contracts';
import { merchantOwnerId, userOwnerId, walletIdOf, type Currency } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';

let subject: TestApp;
let ann: SignedIn;
let bob: SignedIn;
let shop: SignedIn;
const owner = (who: SignedIn) => userOwnerId(who.user.user_id);

beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  [ann, bob, shop] = await Promise.all([
    signedUp(subject, 'personal'),
    signedUp(subject, 'personal'),
    signedUp(subject, 'business'),
  ]);
  await fund(subject, owner(ann), 200_000);
  await fund(subject, owner(ann), 100_000, 'USD');
});
afterAll(() => subject.close());

const send = (from: SignedIn, body: unknown, headers: Record<string, string> = {}) =>
  from.browser.request('POST', '/api/account/send-fund', body, headers);
async function balance(ownerId: string, currency: Currency = 'CON') {
  const wallet = (await walletsOf(subject.database.db, ownerId)).find(
    (each) => each.walletId === walletIdOf(ownerId, currency),
  );
  return wallet?.available ?? Number.NaN;
}

describe('POST /api/account/send-fund', () => {
  it("pays the user with that guser_id from the caller's wallet, in CON unless told, fee 0", async () => {
    const [annBefore, bobBefore] = [await balance(owner(ann)), await balance(owner(bob))];
    const response = await send(ann, { guser_id: bob.user.guser_id, amount: 1234 });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = transactionResponse.parse(response.json());
    expect(transaction).toMatchObject({
      debit_credit: 'D',
      amount: 1234,
      fee: 0,
      currency: 'CON',
      state: 'completed',
      user_id: ann.user.user_id,
      type: 'transfer',
    });
    expect(await balance(owner(ann))).toBe(annBefore - 1234);
    expect(await balance(owner(bob))).toBe(bobBefore + 1234);
  });

  it('sends in the currency asked for', async () => {
    const before = await balance(owner(bob), 'USD');
    expect((await send(ann, { guser_id: bob.user.guser_id, amount: 500_00, currency: 'USD' })).statusCode).toBe(200);
    expect(await balance(owner(bob), 'USD')).toBe(before + 500_00);
  });

  it("pays a merchant's user into the merchant's wallet, as a purchase, with the comment as its reference", async () => {
    const merchantWallet = merchantOwnerId(shop.merchantId);
    const [merchantBefore, personalBefore] = [await balance(merchantWallet), await balance(owner(shop))];
    const response = await send(ann, { guser_id: shop.user.guser_id, amount: 700, comment: 'Order 42' });
    expect(response.statusCode, response.body).toBe(200);
    expect(transactionResponse.parse(response.json()).transaction).toMatchObject({
      type: 'sale',
      merchant_id: shop.merchantId,
      reference: 'Order 42',
      amount: 700,
    });
    expect(await balance(merchantWallet)).toBe(merchantBefore + 700);
    expect(await balance(owner(shop))).toBe(personalBefore);
  });

  it('pays a scanned merchant QR code through the same call', async () => {
    const payload = qrPayload.parse({
      amt: '15',
      gid: shop.user.guser_id,
      uid: shop.user.user_id,
      cur: 'CON',
      comment: 'Table 7',
    });
    const before = await balance(merchantOwnerId(shop.merchantId));
    const response = await send(ann, sendFundForQr(payload));
    expect(response.statusCode, response.body).toBe(200);
    expect(transactionResponse.parse(response.json()).transaction).toMatchObject({
      type: 'sale',
      reference: 'Table 7',
      amount: 1500,
    });
    expect(await balance(merchantOwnerId(shop.merchantId))).toBe(before + 1500);
  });

  it('moves money once per Idempotency-Key and answers the retry with the first transaction', async () => {
    const before = await balance(owner(bob));
    const body = { guser_id: bob.user.guser_id, amount: 300 };
    const [first, retry] = [
      await send(ann, body, { 'idempotency-key': 'send-once' }),
      await send(ann, body, { 'idempotency-key': 'send-once' }),
    ];
    expect(transactionResponse.parse(retry.json()).transaction.tx_id).toBe(
      transactionResponse.parse(first.json()).transaction.tx_id,
    );
    expect(await balance(owner(bob))).toBe(before + 300);
    expectRefusal(
      await send(ann, { ...body, amount: 301 }, { 'idempotency-key': 'send-once' }),
      409,
      errorCodes.idempotencyKeyReused,
      'key reused',
    );
    expect(await balance(owner(bob))).toBe(before + 300);
  });

  it("answers 'User not found' for a guser_id nobody has, and for a disabled user", async () => {
    const nobody = await send(ann, { guser_id: '7d4c6b8e-2f0a-4c59-9e55-0c0d1e2f3a4b', amount: 100 });
    expectRefusal(nobody, 404, errorCodes.recipientNotFound, 'unknown');
    expect(nobody.json()).toMatchObject({
      message: 'User not found',
      errors: [{ field: 'guser_id', message: 'User not found' }],
    });
    const gone = await signedUp(subject, 'personal');
    await subject.database.db
      .updateTable('users')
      .set({ account_status: 'disabled' })
      .where('user_id', '=', gone.user.user_id)
      .execute();
    expectRefusal(
      await send(ann, { guser_id: gone.user.guser_id, amount: 100 }),
      404,
      errorCodes.recipientNotFound,
      'disabled',
    );
  });

  it("answers 'User not found' moments after a payee paid before is banned, though this process had them cached", async () => {
    const later = await signedUp(subject, 'personal');
    expect((await send(ann, { guser_id: later.user.guser_id, amount: 100 })).statusCode).toBe(200);
    // As an operator's ban in another process leaves it.
    await subject.database.db
      .updateTable('users')
      .set({ is_banned: true })
      .where('user_id', '=', later.user.user_id)
      .execute();
    let status = 200;
    for (let tries = 0; tries < 100 && status === 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await send(ann, { guser_id: later.user.guser_id.toUpperCase(), amount: 1 })).statusCode;
    }
    expect(status).toBe(404);
  });

  it('names a payee by their new name moments after a rename, though this process had them cached', async () => {
    const later = await signedUp(subject, 'personal');
    const shopUser = await signedUp(subject, 'business');
    const nameSent = async (to: SignedIn) => {
      const response = await send(ann, { guser_id: to.user.guser_id, amount: 1 });
      expect(response.statusCode, response.body).toBe(200);
      return transactionResponse.parse(response.json()).transaction.counterparty?.name;
    };
    expect(await nameSent(later)).toBe(later.user.username);
    expect(await nameSent(shopUser)).not.toBe('Renamed Coffee');
    // As a profile edit or a merchant's settings in another process leave them.
    const db = subject.database.db;
    await db.updateTable('users').set({ fullname: 'Lena Later' }).where('user_id', '=', later.user.user_id).execute();
    await db
      .updateTable('merchants')
      .set({ name: 'Renamed Coffee' })
      .where('merchant_id', '=', shopUser.merchantId)
      .execute();
    const named: (string | undefined)[] = [];
    for (let tries = 0; tries < 100; tries++) {
      named.splice(0, 2, await nameSent(later), await nameSent(shopUser));
      if (named[0] === 'Lena Later' && named[1] === 'Renamed Coffee') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(named).toEqual(['Lena Later', 'Renamed Coffee']);
  });

  it("takes from_guser_id only when it is the caller's own", async () => {
    expect(
      (await send(ann, { guser_id: bob.user.guser_id, amount: 100, from_guser_id: ann.user.guser_id })).statusCode,
    ).toBe(200);
    const before = await balance(owner(bob));
    expectRefusal(
      await send(ann, { guser_id: bob.user.guser_id, amount: 100, from_guser_id: bob.user.guser_id }),
      404,
      errorCodes.recipientNotFound,
      'someone else as sender',
    );
    expect(await balance(owner(bob))).toBe(before);
  });

  it("refuses sending to oneself, a merchant's user to its own merchant included", async () => {
    expectRefusal(await send(ann, { guser_id: ann.user.guser_id, amount: 100 }), 422, errorCodes.sendToSelf, 'to self');
    await fund(subject, owner(shop), 1000);
    expectRefusal(
      await send(shop, { guser_id: shop.user.guser_id, amount: 100 }),
      422,
      errorCodes.sendToSelf,
      'merchant user to own merchant',
    );
  });

  it('refuses more than the wallet holds with 422 Insufficient funds and moves nothing', async () => {
    const before = await balance(owner(bob));
    const poor = await signedUp(subject, 'personal');
    await fund(subject, owner(poor), 100);
    const response = await send(poor, { guser_id: bob.user.guser_id, amount: 101 });
    expectRefusal(response, 422, errorCodes.insufficientFunds, 'overdraft');
    expect(response.json()).toMatchObject({ message: 'Insufficient funds' });
    expect(await balance(owner(bob))).toBe(before);
    expect(await balance(owner(poor))).toBe(100);
  });

  it.each([
    [{ amount: undefined }, 'amount', errorCodes.requiredField, 'Please enter amount'],
    [{ amount: null }, 'amount', errorCodes.requiredField, 'Please enter amount'],
    [{ amount: '12' }, 'amount', errorCodes.invalidArguments, 'Please enter valid amount'],
    [{ amount: 12.5 }, 'amount', errorCodes.invalidArguments, 'Please enter valid amount'],
    [{ amount: 0 }, 'amount', errorCodes.amountNotPositive, 'Please enter amount should be greater than 0'],
    [{ amount: -5 }, 'amount', errorCodes.amountNotPositive, 'Please enter amount should be greater than 0'],
    [{ amount: 50_001 }, 'amount', errorCodes.amountAboveLimit, 'Please enter amount should be less than 500'],
    [
      { amount: 501, currency: 'IMP' },
      'amount',
      errorCodes.amountAboveLimit,
      'Please enter amount should be less than 500',
    ],
    [{ amount: 1e12 }, 'amount', errorCodes.amountAboveLimit, 'Please enter amount should be less than 500'],
    [{ guser_id: undefined }, 'guser_id', errorCodes.requiredField, 'Please enter Recipient'],
    [{ guser_id: 'bob' }, 'guser_id', errorCodes.invalidArguments, 'Please enter valid Recipient'],
    [{ from_guser_id: 42 }, 'from_guser_id', errorCodes.invalidArguments, 'Please enter valid Sender'],
    [{ currency: 'EUR' }, 'currency', errorCodes.invalidArguments, undefined],
    [
      { comment: 'x'.repeat(101) },
      'comment',
      errorCodes.invalidArguments,
      'Please enter at most 100 characters Comment',
    ],
  ])('refuses %o under %s with %i %s, moving nothing', async (change, field, code, message) => {
    const before = await balance(owner(ann));
    const response = await send(ann, { guser_id: bob.user.guser_id, amount: 100, ...change });
    expectRefusal(response, 400, undefined, JSON.stringify(change));
    const problem = response
      .json<{ errors: { field?: string; code: number; message: string }[] }>()
      .errors.find((each) => each.field === field);
    expect(problem?.code).toBe(code);
    if (message !== undefined) expect(problem?.message).toBe(message);
    expect(await balance(owner(ann))).toBe(before);
  });

  it('takes exactly 500 units, the limit', async () => {
    expect((await send(ann, { guser_id: bob.user.guser_id, amount: 50_000 })).statusCode).toBe(200);
    expect((await send(ann, { guser_id: bob.user.guser_id, amount: 500, currency: 'IMP' })).statusCode).toBe(422);
  });
});
