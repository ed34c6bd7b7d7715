import { checkoutResponse, errorCodes, transactionResponse } from '@peeks/contracts';
import { merchantOwnerId, userOwnerId, walletIdOf, type Currency } from '@peeks/ledger';
import { closeWallet, walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { chargeKeyFor } from '@peeks/card-processor';
import { DECLINED_CARD } from '../card-processor/index.ts';
import { newCheckout } from '../../testing/checkout.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { storedBank, storedCard } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { crashingBefore } from '../../testing/card-payments.ts';

/** Sending money and paying a checkout with a stored card instead of the wallet (issue 5, items 3 and 6). */

let subject: TestApp;
let shop: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  shop = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);
async function balance(ownerId: string, currency: Currency) {
  const wallet = (await walletsOf(subject.database.db, ownerId)).find(
    (each) => each.walletId === walletIdOf(ownerId, currency),
  );
  return { available: wallet?.available ?? 0, total: wallet?.total ?? 0 };
}
const chargesFor = async (paymentMethodId: number) => {
  const method = await subject.database.db
    .selectFrom('payment_methods')
    .select('type_specific')
    .where('payment_method_id', '=', paymentMethodId)
    .executeTakeFirstOrThrow();
  return subject.database.db
    .selectFrom('sandbox_charges')
    .select(['idempotency_key', 'amount', 'currency', 'status', 'refunded_at'])
    .where('token', '=', method.type_specific.token as string)
    .orderBy('created_at')
    .execute();
};
const transactionsOf = async (who: SignedIn) =>
  (
    await subject.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payer_owner_id', '=', owner(who))
      .execute()
  ).length;
const send = (from: SignedIn, body: unknown, key?: string) =>
  from.browser.request('POST', '/api/account/send-fund', body, key === undefined ? {} : { 'idempotency-key': key });
const pay = (who: SignedIn, body: unknown) => who.browser.post('/api/checkout/pay', body);

/** A new personal user with nothing in their wallets and a stored card. */
async function cardHolder(cardNumber?: string) {
  const who = await signedUp(subject, 'personal');
  return { who, card: await storedCard(subject, who, cardNumber) };
}

describe('POST /api/account/send-fund with paymentMethodId', () => {
  it("charges the card the amount and pays it to the payee; the payer's empty wallet is untouched", async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const response = await send(who, {
      guser_id: payee.user.guser_id,
      amount: 12_34,
      currency: 'USD',
      paymentMethodId: card,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = transactionResponse.parse(response.json());
    expect(transaction).toMatchObject({
      type: 'transfer',
      debit_credit: 'D',
      amount: 12_34,
      currency: 'USD',
      state: 'completed',
      payment_method: String(card),
      payment_method_type: 'CC',
    });
    expect(await chargesFor(card)).toEqual([
      {
        idempotency_key: await chargeKeyFor(subject.app, transaction.tx_id),
        amount: 12_34,
        currency: 'USD',
        status: 'approved',
        refunded_at: null,
      },
    ]);
    expect(await balance(owner(who), 'USD')).toEqual({ available: 0, total: 0 });
    expect(await balance(owner(payee), 'USD')).toEqual({ available: 12_34, total: 12_34 });
  });

  it('charges a CON payment its cash price in USD, 20 coins a dollar, and mints the coins to the payee', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const response = await send(who, { guser_id: payee.user.guser_id, amount: 100_00, paymentMethodId: card });
    expect(response.statusCode, response.body).toBe(200);
    // 100 coins at 20 coins a US dollar: $5.00, as purchase charges.
    expect((await chargesFor(card)).map((charge) => [charge.amount, charge.currency])).toEqual([[500, 'USD']]);
    expect(await balance(owner(payee), 'CON')).toEqual({ available: 100_00, total: 100_00 });
    // What the card paid is in the transaction's event, which the history shows.
    const { transaction } = transactionResponse.parse(response.json());
    expect(transaction.funding).toEqual({ amount: 500, currency: 'USD', label: 'Visa •••• 4242' });
    const coins = await subject.database.db
      .selectFrom('coins')
      .select(['value', 'status'])
      .where('holder', '=', walletIdOf(owner(payee), 'CON'))
      .execute();
    expect(coins).toEqual([{ value: 100_00, status: 'held' }]);
  });

  it("pays a merchant's user into the merchant's wallet", async () => {
    const { who, card } = await cardHolder();
    const before = await balance(merchantOwnerId(shop.merchantId), 'CAD');
    const response = await send(who, {
      guser_id: shop.user.guser_id,
      amount: 5_00,
      currency: 'CAD',
      paymentMethodId: card,
      comment: 'Order 7',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(transactionResponse.parse(response.json()).transaction).toMatchObject({
      type: 'sale',
      merchant_id: shop.merchantId,
      reference: 'Order 7',
    });
    expect((await balance(merchantOwnerId(shop.merchantId), 'CAD')).total).toBe(before.total + 5_00);
  });

  it('charges once and pays once for a retry with the same Idempotency-Key', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const body = { guser_id: payee.user.guser_id, amount: 2_00, currency: 'USD', paymentMethodId: card };
    const [first, again] = [await send(who, body, 'card-send'), await send(who, body, 'card-send')];
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(transactionResponse.parse(again.json()).transaction.tx_id).toBe(
      transactionResponse.parse(first.json()).transaction.tx_id,
    );
    expect(await chargesFor(card)).toHaveLength(1);
    expect((await balance(owner(payee), 'USD')).total).toBe(2_00);
    expectRefusal(
      await send(who, { ...body, amount: 3_00 }, 'card-send'),
      409,
      errorCodes.idempotencyKeyReused,
      'the key for another payment',
    );
  });

  it('charges once and pays once for concurrent duplicates', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const body = { guser_id: payee.user.guser_id, amount: 3_00, currency: 'USD', paymentMethodId: card };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(who, body, 'double-click')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => transactionResponse.parse(answer.json()).transaction.tx_id)).size).toBe(1);
    expect(await chargesFor(card)).toHaveLength(1);
    expect((await balance(owner(payee), 'USD')).total).toBe(3_00);
  });

  it('repairs a crash between the charge and the payment on retry, without charging again', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const body = { guser_id: payee.user.guser_id, amount: 4_00, currency: 'USD', paymentMethodId: card };
    const crashed = await crashingBefore(subject.database.db, 'FundsTransferred', () =>
      send(who, body, 'crash-then-retry'),
    );
    expect(crashed.statusCode).toBe(500);
    expect(await chargesFor(card)).toHaveLength(1);
    expect((await balance(owner(payee), 'USD')).total).toBe(0);

    const retried = await send(who, body, 'crash-then-retry');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await chargesFor(card)).toEqual([
      expect.objectContaining({
        idempotency_key: await chargeKeyFor(subject.app, transactionResponse.parse(retried.json()).transaction.tx_id),
        refunded_at: null,
      }),
    ]);
    expect((await balance(owner(payee), 'USD')).total).toBe(4_00);
  });

  it('moves nothing when the card is declined', async () => {
    const { who, card } = await cardHolder(DECLINED_CARD);
    const payee = await signedUp(subject, 'personal');
    expectRefusal(
      await send(who, { guser_id: payee.user.guser_id, amount: 1_00, currency: 'USD', paymentMethodId: card }),
      422,
      errorCodes.cardDeclined,
      'declined',
    );
    expect(await balance(owner(payee), 'USD')).toEqual({ available: 0, total: 0 });
    expect(await transactionsOf(who)).toBe(0);
  });

  it("refunds the charge when the ledger refuses the payment after it (the payee's wallet was closed)", async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    await closeWallet(subject.database.db, walletIdOf(owner(payee), 'USD'));
    expectRefusal(
      await send(who, { guser_id: payee.user.guser_id, amount: 1_00, currency: 'USD', paymentMethodId: card }),
      422,
      errorCodes.walletClosed,
      'closed wallet',
    );
    expect(await chargesFor(card)).toEqual([
      expect.objectContaining({ status: 'approved', refunded_at: expect.any(Date) as Date }),
    ]);
    expect(await transactionsOf(who)).toBe(0);
  });

  it("answers 404 (10501) for someone else's card, and charges nothing", async () => {
    const { card } = await cardHolder();
    const other = await signedUp(subject, 'personal');
    const payee = await signedUp(subject, 'personal');
    expectRefusal(
      await send(other, { guser_id: payee.user.guser_id, amount: 1_00, currency: 'USD', paymentMethodId: card }),
      404,
      errorCodes.paymentMethodNotFound,
      "another user's card",
    );
    expect(await chargesFor(card)).toEqual([]);
  });

  it('refuses a bank account as purchase does, and impressions, which no card buys', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const bank = await storedBank(who);
    const refused = await send(who, {
      guser_id: payee.user.guser_id,
      amount: 1_00,
      currency: 'USD',
      paymentMethodId: bank,
    });
    expectRefusal(refused, 422, errorCodes.paymentMethodWrongUse, 'bank account');
    expect(refused.json()).toMatchObject({
      errors: [{ field: 'paymentMethodId', message: 'Please select a credit card' }],
    });
    expectRefusal(
      await send(who, { guser_id: payee.user.guser_id, amount: 5, currency: 'IMP', paymentMethodId: card }),
      422,
      errorCodes.paymentMethodWrongUse,
      'impressions',
    );
    expect(await chargesFor(card)).toEqual([]);
  });

  it('keeps the Transfer fund limit of 500, checked before any charge', async () => {
    const { who, card } = await cardHolder();
    const payee = await signedUp(subject, 'personal');
    const response = await send(who, {
      guser_id: payee.user.guser_id,
      amount: 500_01,
      currency: 'USD',
      paymentMethodId: card,
    });
    expectRefusal(response, 400, errorCodes.amountAboveLimit, 'above 500');
    expect(response.json()).toMatchObject({
      errors: [{ field: 'amount', message: 'Please enter amount should be less than 500' }],
    });
    expect(await chargesFor(card)).toEqual([]);
  });
});

describe('POST /api/checkout/pay with paymentMethodId', () => {
  const merchantCoins = async () => (await balance(merchantOwnerId(shop.merchantId), 'CON')).total;

  it("charges the card the session's cash price and marks the session paid, with the wallet untouched", async () => {
    const { who, card } = await cardHolder();
    const { id, token } = await newCheckout(shop);
    const before = await merchantCoins();
    const response = await pay(who, { id, token, paymentMethodId: card });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = transactionResponse.parse(response.json());
    expect(transaction).toMatchObject({
      type: 'sale',
      amount: 12_50,
      currency: 'CON',
      payment_method: String(card),
      payment_method_type: 'CC',
    });
    // 12.50 coins: $0.625 rounds up to $0.63.
    expect((await chargesFor(card)).map((charge) => [charge.amount, charge.currency, charge.refunded_at])).toEqual([
      [63, 'USD', null],
    ]);
    expect(await merchantCoins()).toBe(before + 12_50);
    expect(await balance(owner(who), 'CON')).toEqual({ available: 0, total: 0 });
    const seen = checkoutResponse.parse(
      (await who.browser.get(`/api/checkout/session?id=${id}&token=${token}`)).json(),
    ).checkout;
    expect(seen).toMatchObject({ state: 'paid', tx_id: transaction.tx_id });
  });

  it('is paid and charged exactly once for duplicates and retries by the payer', async () => {
    const { who, card } = await cardHolder();
    const { id, token } = await newCheckout(shop);
    const before = await merchantCoins();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(who, { id, token, paymentMethodId: card })));
    const retry = await pay(who, { id, token, paymentMethodId: card });
    expect([...answers, retry].map((answer) => answer.statusCode)).toEqual(Array(7).fill(200));
    expect(
      new Set([...answers, retry].map((answer) => transactionResponse.parse(answer.json()).transaction.tx_id)).size,
    ).toBe(1);
    expect(await chargesFor(card)).toHaveLength(1);
    expect(await merchantCoins()).toBe(before + 12_50);
  });

  it("is paid exactly once when card holders race for it, and the losers' charges are refunded", async () => {
    const { id, token } = await newCheckout(shop);
    const racers = await Promise.all(Array.from({ length: 5 }, () => cardHolder()));
    const before = await merchantCoins();
    // Each racer's browser sends an Idempotency-Key of its own, as the web app does: the session's transaction still answers for itself.
    const answers = await Promise.all(
      racers.map(({ who, card }, index) =>
        who.browser.request(
          'POST',
          '/api/checkout/pay',
          { id, token, paymentMethodId: card },
          { 'idempotency-key': `race-${index}` },
        ),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200))
      expectRefusal(answer, 404, errorCodes.transactionNotFound, 'a losing racer');
    expect(await merchantCoins()).toBe(before + 12_50);
    const charges = (await Promise.all(racers.map(({ card }) => chargesFor(card)))).flat();
    expect(
      charges.filter((charge) => charge.refunded_at === null),
      'charges kept',
    ).toHaveLength(1);
  });

  it('moves nothing and leaves the session open when the card is declined', async () => {
    const { who, card } = await cardHolder(DECLINED_CARD);
    const { id, token } = await newCheckout(shop);
    const before = await merchantCoins();
    expectRefusal(await pay(who, { id, token, paymentMethodId: card }), 422, errorCodes.cardDeclined, 'declined');
    expect(await merchantCoins()).toBe(before);
    const seen = checkoutResponse.parse(
      (await who.browser.get(`/api/checkout/session?id=${id}&token=${token}`)).json(),
    ).checkout;
    expect(seen.state).toBe('open');
  });

  it("answers 404 (10501) for someone else's card and refuses a bank account, charging nothing", async () => {
    const { card } = await cardHolder();
    const other = await signedUp(subject, 'personal');
    const { id, token } = await newCheckout(shop);
    expectRefusal(
      await pay(other, { id, token, paymentMethodId: card }),
      404,
      errorCodes.paymentMethodNotFound,
      "another user's card",
    );
    expectRefusal(
      await pay(other, { id, token, paymentMethodId: await storedBank(other) }),
      422,
      errorCodes.paymentMethodWrongUse,
      'bank account',
    );
    expect(await chargesFor(card)).toEqual([]);
  });
});
