import { checkoutResponse, createCheckoutResponse, errorCodes, transactionResponse } from '@peeks/contracts';
import { merchantOwnerId, userOwnerId, walletIdOf } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { checkoutForm, newCheckout } from '../../testing/checkout.ts';

let subject: TestApp;
let shop: SignedIn;
let otherShop: SignedIn;
let payer: SignedIn;
let now = new Date('2026-03-02T10:00:00Z');

beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, clock: () => now });
  [shop, otherShop, payer] = await Promise.all([
    signedUp(subject, 'business'),
    signedUp(subject, 'business'),
    signedUp(subject, 'personal'),
  ]);
  await fund(subject, userOwnerId(payer.user.user_id), 100_000);
});
afterAll(() => subject.close());

const conOf = async (ownerId: string) =>
  (await walletsOf(subject.database.db, ownerId)).find((each) => each.walletId === walletIdOf(ownerId, 'CON'))
    ?.available ?? Number.NaN;
const merchantBalance = () => conOf(merchantOwnerId(shop.merchantId));
/** The Checkout page's summary, as `who` sees it (a guest when null). */
async function show(who: SignedIn | null, id: number, token: string) {
  const browser = who?.browser ?? (await subject.browser());
  return browser.get(`/api/checkout/session?id=${id}&token=${token}`);
}
const pay = (who: SignedIn, body: unknown) => who.browser.post('/api/checkout/pay', body);

describe('POST /api/checkout/create-session', () => {
  it('gives the merchant an id and a token, and the session reads back open with its cart', async () => {
    const response = await shop.browser.post('/api/checkout/create-session', checkoutForm());
    expect(response.statusCode, response.body).toBe(200);
    const { id, token, expires_at } = createCheckoutResponse.parse(response.json());
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expires_at).toBe(new Date(now.getTime() + 3600_000).toISOString());
    const { checkout } = checkoutResponse.parse((await show(null, id, token)).json());
    expect(checkout).toMatchObject({
      id,
      merchant_id: shop.merchantId,
      state: 'open',
      total: 1250,
      currency: 'CON',
      cart: checkoutForm().cart,
      tx_id: null,
    });
    expect(checkout.merchant_name.length).toBeGreaterThan(0);
  });

  it('keeps only the hash of the token', async () => {
    const { id, token } = await newCheckout(shop);
    const row = await subject.database.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('checkout_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash.toString('base64url')).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('is for merchants: a personal user is refused with 403', async () => {
    expectRefusal(
      await payer.browser.post('/api/checkout/create-session', checkoutForm()),
      403,
      errorCodes.notAuthorized,
      'personal',
    );
  });

  it.each([
    [{ cart: [] }, 'cart', 'Please enter Cart'],
    [{ cart: undefined }, 'cart', 'Please enter Cart'],
    [
      { cart: Array.from({ length: 101 }, (_, n) => ({ sku: `S${n}`, name: 'Thing', price: 1 })), total: 101 },
      'cart',
      'A cart has at most 100 lines',
    ],
    [{ cart: [{ sku: '', name: 'Mug', price: 1250 }] }, 'cart.0.sku', 'Please enter SKU'],
    [
      { cart: [{ sku: 'M', name: 'N'.repeat(129), price: 1250 }] },
      'cart.0.name',
      'Please enter at most 128 characters Name',
    ],
    [
      { cart: [{ sku: 'M', name: 'Mug', price: 0 }], total: 0 },
      'cart.0.price',
      'Please enter price should be greater than 0',
    ],
    [{ cart: [{ sku: 'M', name: 'Mug', price: 12.5 }] }, 'cart.0.price', 'Please enter valid price'],
    [{ total: 1249 }, 'total', 'Total must equal the sum of the cart prices'],
    [{ total: undefined }, 'total', 'Please enter total'],
    [
      { cart: [{ sku: 'M', name: 'Mug', price: 50_001 }], total: 50_001 },
      'total',
      'Please enter total should be less than 500',
    ],
    [{ currency: 'BTC' }, 'currency', undefined],
    [{ expires_in: 59 }, 'expires_in', 'Please enter valid Expiry'],
    [{ expires_in: 7 * 24 * 3600 + 1 }, 'expires_in', 'Please enter valid Expiry'],
    [{ success_url: undefined }, 'success_url', 'Please enter Success URL'],
    [{ success_url: 'ftp://shop.example.com/x' }, 'success_url', 'Please enter valid Success URL'],
    [
      { success_url: `https://shop.example.com/${'x'.repeat(60)}` },
      'success_url',
      'Please enter at most 64 characters Success URL',
    ],
  ])('refuses %o under %s: %s', async (change, field, message) => {
    const before = await subject.database.db
      .selectFrom('checkout_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const response = await shop.browser.post('/api/checkout/create-session', checkoutForm(change));
    expectRefusal(response, 400, undefined, JSON.stringify(change).slice(0, 100));
    const problem = response
      .json<{ errors: { field?: string; message: string }[] }>()
      .errors.find((each) => each.field === field);
    expect(problem, response.body).toBeDefined();
    if (message !== undefined) expect(problem?.message).toBe(message);
    const after = await subject.database.db
      .selectFrom('checkout_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('GET /api/checkout/session and session-details', () => {
  it("answers 'No such a transaction' for an unknown id or a wrong token", async () => {
    const { id, token } = await newCheckout(shop);
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const [what, response] of [
      ['wrong token', await show(null, id, wrong)],
      ['unknown id', await show(null, id + 1000, token)],
    ] as const) {
      expectRefusal(response, 404, errorCodes.transactionNotFound, what);
      expect(response.json()).toMatchObject({ message: 'No such a transaction' });
    }
  });

  it('shows the merchant its own session by id, and 404 to another merchant', async () => {
    const { id } = await newCheckout(shop);
    const own = await shop.browser.get(`/api/checkout/session-details?id=${id}`);
    expect(checkoutResponse.parse(own.json()).checkout).toMatchObject({ id, state: 'open' });
    expectRefusal(
      await otherShop.browser.get(`/api/checkout/session-details?id=${id}`),
      404,
      errorCodes.transactionNotFound,
      'another merchant',
    );
  });
});

describe('POST /api/checkout/pay', () => {
  it("pays the merchant's wallet from the payer's, as a sale carrying the session's cart, and the session reads paid", async () => {
    const { id, token } = await newCheckout(shop);
    const [merchantBefore, payerBefore] = [await merchantBalance(), await conOf(userOwnerId(payer.user.user_id))];
    const response = await pay(payer, { id, token });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = transactionResponse.parse(response.json());
    expect(transaction).toMatchObject({
      type: 'sale',
      debit_credit: 'D',
      amount: 1250,
      fee: 0,
      currency: 'CON',
      merchant_id: shop.merchantId,
      cart: checkoutForm().cart,
    });
    expect(await merchantBalance()).toBe(merchantBefore + 1250);
    expect(await conOf(userOwnerId(payer.user.user_id))).toBe(payerBefore - 1250);
    const seen = checkoutResponse.parse((await show(payer, id, token)).json()).checkout;
    expect(seen).toMatchObject({ state: 'paid', tx_id: transaction.tx_id });
    // The payer's transaction details carry the cart too (spec §3, Transaction).
    const details = transactionResponse.parse(
      (await payer.browser.post('/api/account/transaction-details', { id: transaction.tx_id })).json(),
    ).transaction;
    expect(details).toMatchObject({ tx_id: transaction.tx_id, cart: checkoutForm().cart });
  });

  it('answers a retry by the same payer with the same transaction, and anyone else with 404; money moves once', async () => {
    const { id, token } = await newCheckout(shop);
    const first = await pay(payer, { id, token });
    const after = await merchantBalance();
    const retry = await pay(payer, { id, token });
    expect(transactionResponse.parse(retry.json()).transaction.tx_id).toBe(
      transactionResponse.parse(first.json()).transaction.tx_id,
    );
    const other = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(other.user.user_id), 10_000);
    expectRefusal(await pay(other, { id, token }), 404, errorCodes.transactionNotFound, 'already paid');
    expect(await merchantBalance()).toBe(after);
  });

  it('is paid exactly once when many payers race for it', async () => {
    const { id, token } = await newCheckout(shop);
    const racers = await Promise.all(Array.from({ length: 8 }, () => signedUp(subject, 'personal')));
    await Promise.all(racers.map((racer) => fund(subject, userOwnerId(racer.user.user_id), 10_000)));
    const before = await merchantBalance();
    const answers = await Promise.all([...racers, ...racers].map((racer) => pay(racer, { id, token })));
    const paid = answers
      .filter((answer) => answer.statusCode === 200)
      .map((answer) => transactionResponse.parse(answer.json()).transaction);
    expect(new Set(paid.map((tx) => tx.user_id)).size, 'one payer').toBe(1);
    expect(new Set(paid.map((tx) => tx.tx_id)).size, 'one transaction').toBe(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200))
      expectRefusal(answer, 404, errorCodes.transactionNotFound, 'a losing racer');
    expect(await merchantBalance()).toBe(before + 1250);
    const spent = await Promise.all(
      racers.map(async (racer) => 10_000 - (await conOf(userOwnerId(racer.user.user_id)))),
    );
    expect(spent.sort((a, b) => b - a)).toEqual([1250, ...Array.from({ length: 7 }, () => 0)]);
  });

  it("answers 'No such a transaction' for an expired session, an unknown one and a wrong token", async () => {
    const { id, token } = await newCheckout(shop, { expires_in: 60 });
    const before = await merchantBalance();
    now = new Date(now.getTime() + 60_000);
    try {
      expectRefusal(await pay(payer, { id, token }), 404, errorCodes.transactionNotFound, 'expired');
      expect(checkoutResponse.parse((await show(payer, id, token)).json()).checkout.state).toBe('expired');
    } finally {
      now = new Date(now.getTime() - 60_000);
    }
    const open = await newCheckout(shop);
    expectRefusal(
      await pay(payer, { id: open.id + 1000, token: open.token }),
      404,
      errorCodes.transactionNotFound,
      'unknown',
    );
    expectRefusal(await pay(payer, { id: open.id, token: token }), 404, errorCodes.transactionNotFound, 'wrong token');
    expect(await merchantBalance()).toBe(before);
  });

  it('refuses a payer without the money with 422 and leaves the session open for another', async () => {
    const { id, token } = await newCheckout(shop);
    const broke = await signedUp(subject, 'personal');
    expectRefusal(await pay(broke, { id, token }), 422, errorCodes.insufficientFunds, 'broke');
    expect(checkoutResponse.parse((await show(null, id, token)).json()).checkout.state).toBe('open');
    expect((await pay(payer, { id, token })).statusCode).toBe(200);
  });

  it.each([
    [{ token: undefined }, 'token', 'Please enter token'],
    [{ token: 'short' }, 'token', 'Please enter valid token'],
    [{ id: -1 }, 'id', 'Please enter valid id'],
    [{ id: 'one' }, 'id', 'Please enter valid id'],
  ])('refuses %o under %s: %s', async (change, field, message) => {
    const session = await newCheckout(shop);
    const response = await pay(payer, { ...session, ...change });
    expectRefusal(response, 400, undefined, JSON.stringify(change));
    expect(
      response.json<{ errors: { field?: string; message: string }[] }>().errors.find((each) => each.field === field)
        ?.message,
    ).toBe(message);
  });

  it('needs a signed-in payer', async () => {
    const session = await newCheckout(shop);
    const guest = await subject.browser();
    expectRefusal(await guest.post('/api/checkout/pay', session), 401, errorCodes.notSignedIn, 'guest');
  });
});
