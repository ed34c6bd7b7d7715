import {
  depositFundResponse,
  errorCodes,
  purchaseResponse,
  quoteResponse,
  staleQuoteEnvelope,
  transactionResponse,
  withdrawResponse,
} from '@peeks/contracts';
import { userOwnerId, walletIdOf, type Currency } from '@peeks/ledger';
import { closeWallet, requestedPayoutOf, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { chargeKeyFor } from '@peeks/card-processor';
import { DECLINED_CARD } from '../card-processor/index.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { storedBank, storedCard } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { crashingBefore } from '../../testing/card-payments.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
});
afterAll(() => subject.close());

const balance = async (who: SignedIn, currency: Currency) => {
  const wallet = (await walletsOf(subject.database.db, userOwnerId(who.user.user_id))).find(
    (each) => each.currency === currency,
  );
  return { available: wallet?.available ?? 0, total: wallet?.total ?? 0 };
};
const chargesFor = async (txId: string) =>
  subject.database.db
    .selectFrom('sandbox_charges')
    .select(['amount', 'currency', 'status'])
    .where('idempotency_key', '=', await chargeKeyFor(subject.app, txId))
    .execute();
const ledgerRowsOf = async (who: SignedIn) =>
  (
    await subject.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payee_owner_id', '=', userOwnerId(who.user.user_id))
      .execute()
  ).length;
const cardToken = async (paymentMethodId: number) =>
  (
    await subject.database.db
      .selectFrom('payment_methods')
      .select('type_specific')
      .where('payment_method_id', '=', paymentMethodId)
      .executeTakeFirstOrThrow()
  ).type_specific.token as string;
const purchase = (who: SignedIn, body: unknown, key?: string) =>
  who.browser.request('POST', '/api/account/purchase', body, key === undefined ? {} : { 'idempotency-key': key });
const problems = (body: string) =>
  (JSON.parse(body) as { errors: { code: number; field?: string; message: string }[] }).errors;

async function buyer(cardNumber?: string) {
  const who = await signedUp(subject, 'personal');
  return { who, card: await storedCard(subject, who, cardNumber) };
}

describe('purchase', () => {
  it('charges the cash price of the coins, says what the card was charged, and mints exactly the coins asked for', async () => {
    const { who, card } = await buyer();
    const response = await purchase(who, { payment_method_id: card, coin_amt: 10_000, currency: 'USD' });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction, quote, funding } = purchaseResponse.parse(response.json());
    expect(transaction).toMatchObject({
      amount: 10_000,
      currency: 'CON',
      state: 'completed',
      debit_credit: 'C',
      payment_method: String(card),
      payment_method_type: 'CC',
    });
    // 100 coins at 20 coins a US dollar: $5.00.
    expect(await chargesFor(transaction.tx_id)).toEqual([{ amount: 500, currency: 'USD', status: 'approved' }]);
    expect(funding).toEqual({ amount: 500, currency: 'USD', label: 'Visa •••• 4242' });
    expect(quote).toMatchObject({ from_currency: 'USD', to_currency: 'CON', amount_in: 500, amount_out: 10_000 });
    expect(quote).toMatchObject({ rate: '20', fee: 0 });
    expect(await balance(who, 'CON')).toEqual({ available: 10_000, total: 10_000 });
  });

  it('charges CAD when asked to, at its own rate', async () => {
    const { who, card } = await buyer();
    const response = await purchase(who, { payment_method_id: card, coin_amt: 1_600, currency: 'CAD' });
    const { transaction } = transactionResponse.parse(response.json());
    // 16 coins at 15.6 coins a Canadian dollar: $1.0256… rounds up to $1.03.
    expect(await chargesFor(transaction.tx_id)).toEqual([{ amount: 103, currency: 'CAD', status: 'approved' }]);
  });

  it('makes 1,000 coins cost more in CAD than in USD, and 100 US dollars buy 2,000 coins', async () => {
    const { who, card } = await buyer();
    const charged = [];
    for (const currency of ['USD', 'CAD'] as const) {
      const response = await purchase(who, { payment_method_id: card, coin_amt: 100_000, currency });
      expect(response.statusCode, response.body).toBe(200);
      charged.push(purchaseResponse.parse(response.json()).funding);
    }
    // 1,000 coins: $50.00 US; 1000 / 15.6 = 64.102… Canadian dollars, $64.11.
    expect(charged).toEqual([
      { amount: 50_00, currency: 'USD', label: 'Visa •••• 4242' },
      { amount: 64_11, currency: 'CAD', label: 'Visa •••• 4242' },
    ]);
    expect(await balance(who, 'CON')).toEqual({ available: 200_000, total: 200_000 });
  });

  it('declines 4000000000000002 with a clear error, and mints nothing', async () => {
    const { who, card } = await buyer(DECLINED_CARD);
    const response = await purchase(who, { payment_method_id: card, coin_amt: 10_000, currency: 'USD' });
    expectRefusal(response, 422, errorCodes.cardDeclined, 'declined card');
    expect(response.json()).toMatchObject({ message: 'Your card was declined' });
    expect(await balance(who, 'CON')).toEqual({ available: 0, total: 0 });
    expect(await ledgerRowsOf(who)).toBe(0);
  });

  it('charges once and mints once for a retry with the same Idempotency-Key', async () => {
    const { who, card } = await buyer();
    const body = { payment_method_id: card, coin_amt: 5_000, currency: 'USD' };
    const first = await purchase(who, body, 'buy-once');
    const again = await purchase(who, body, 'buy-once');
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    const txId = transactionResponse.parse(first.json()).transaction.tx_id;
    expect(transactionResponse.parse(again.json()).transaction.tx_id).toBe(txId);
    expect(await chargesFor(txId)).toHaveLength(1);
    expect(await balance(who, 'CON')).toEqual({ available: 5_000, total: 5_000 });
    expectRefusal(
      await purchase(who, { ...body, coin_amt: 6_000 }, 'buy-once'),
      409,
      errorCodes.idempotencyKeyReused,
      'the key for another purchase',
    );
  });

  it('charges once and mints once for concurrent duplicates', async () => {
    const { who, card } = await buyer();
    const body = { payment_method_id: card, coin_amt: 2_000, currency: 'USD' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => purchase(who, body, 'double-click')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    const txIds = new Set(answers.map((answer) => transactionResponse.parse(answer.json()).transaction.tx_id));
    expect(txIds.size).toBe(1);
    expect(await chargesFor([...txIds][0] ?? '')).toHaveLength(1);
    expect(await balance(who, 'CON')).toEqual({ available: 2_000, total: 2_000 });
  });

  it('refunds the charge when the ledger refuses the coins after it (the wallet was closed meanwhile)', async () => {
    const { who, card } = await buyer();
    await closeWallet(subject.database.db, walletIdOf(userOwnerId(who.user.user_id), 'CON'));
    const response = await purchase(
      who,
      { payment_method_id: card, coin_amt: 10_000, currency: 'USD' },
      'closed-wallet',
    );
    expectRefusal(response, 422, errorCodes.walletClosed, 'closed wallet');
    const charges = await subject.database.db
      .selectFrom('sandbox_charges')
      .select(['status', 'refunded_at'])
      .where('token', '=', await cardToken(card))
      .execute();
    expect(charges).toEqual([{ status: 'approved', refunded_at: expect.any(Date) as Date }]);
    expect(await ledgerRowsOf(who)).toBe(0);
  });

  it('repairs a crash between the charge and the ledger on retry, without charging again', async () => {
    const { who, card } = await buyer();
    const db = subject.database.db;
    const body = { payment_method_id: card, coin_amt: 3_000, currency: 'USD' };
    const crashed = await crashingBefore(db, 'CoinsPurchased', () => purchase(who, body, 'crash-then-retry'));
    expect(crashed.statusCode).toBe(500);
    const charged = await db
      .selectFrom('sandbox_charges')
      .select('idempotency_key')
      .where('amount', '=', 150)
      .execute();
    expect(charged).toHaveLength(1);
    expect(await balance(who, 'CON')).toEqual({ available: 0, total: 0 });

    const retried = await purchase(who, body, 'crash-then-retry');
    expect(retried.statusCode, retried.body).toBe(200);
    const txId = transactionResponse.parse(retried.json()).transaction.tx_id;
    expect(charged[0]?.idempotency_key).toBe(await chargeKeyFor(subject.app, txId));
    expect(await chargesFor(txId)).toHaveLength(1);
    expect(
      await db.selectFrom('sandbox_charges').select('idempotency_key').where('amount', '=', 150).execute(),
    ).toHaveLength(1);
    expect(await balance(who, 'CON')).toEqual({ available: 3_000, total: 3_000 });
  });

  it.each([
    [{ coin_amt: 1_900 }, 'coin_amt', 'Please enter amount should be greater than 20'],
    [{ coin_amt: 1_000_100 }, 'coin_amt', 'Please enter amount should be less than 10000'],
    [{ coin_amt: 150 }, 'coin_amt', 'Please enter valid amount'],
    [{ coin_amt: 0 }, 'coin_amt', 'Please enter valid amount'],
    [{ coin_amt: 10.5 }, 'coin_amt', 'Please enter valid amount'],
    [{ coin_amt: '100' }, 'coin_amt', 'Please enter valid amount'],
    [{ coin_amt: undefined }, 'coin_amt', 'Please enter amount'],
    [{ currency: 'CON' }, 'currency', 'Please select Currency'],
    [{ payment_method_id: undefined }, 'payment_method_id', 'Please select Payment Method'],
  ])('refuses %j: %s reads %s, and charges nothing', async (overrides, field, message) => {
    const { who, card } = await buyer();
    const before = await subject.database.db
      .selectFrom('sandbox_charges')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const response = await purchase(who, { payment_method_id: card, coin_amt: 10_000, currency: 'USD', ...overrides });
    expect(response.statusCode, response.body).toBe(400);
    expect(problems(response.body).map((each) => [each.field, each.message])).toContainEqual([field, message]);
    expect(
      await subject.database.db
        .selectFrom('sandbox_charges')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });

  it('takes the ends of the range: 20 coins for $1.00 and 10000 coins for $500.00', async () => {
    const { who, card } = await buyer();
    for (const [coins, cents] of [
      [2_000, 100],
      [1_000_000, 50_000],
    ] as const) {
      const response = await purchase(who, { payment_method_id: card, coin_amt: coins, currency: 'USD' });
      expect(response.statusCode, response.body).toBe(200);
      expect(await chargesFor(transactionResponse.parse(response.json()).transaction.tx_id)).toEqual([
        { amount: cents, currency: 'USD', status: 'approved' },
      ]);
    }
  });

  it('refuses a bank account for a purchase', async () => {
    const who = await signedUp(subject, 'personal');
    expectRefusal(
      await purchase(who, { payment_method_id: await storedBank(who), coin_amt: 10_000 }),
      422,
      errorCodes.paymentMethodWrongUse,
      'bank account',
    );
  });
});

describe('deposit-fund', () => {
  const deposit = (who: SignedIn, body: unknown, key?: string) =>
    who.browser.request('POST', '/api/account/deposit-fund', body, key === undefined ? {} : { 'idempotency-key': key });

  it("charges the card and credits the cash wallet: 'Fund deposit successfully'", async () => {
    const { who, card } = await buyer();
    const response = await deposit(who, { amount: 2_500, currency: 'CAD', paymentMethodId: card }, 'deposit-1');
    expect(response.statusCode, response.body).toBe(200);
    const answer = depositFundResponse.parse(response.json());
    expect(answer.message).toBe('Fund deposit successfully');
    expect(answer.transaction).toMatchObject({ amount: 2_500, currency: 'CAD', state: 'completed' });
    expect(await chargesFor(answer.transaction.tx_id)).toEqual([
      { amount: 2_500, currency: 'CAD', status: 'approved' },
    ]);
    expect(
      (await deposit(who, { amount: 2_500, currency: 'CAD', paymentMethodId: card }, 'deposit-1')).statusCode,
    ).toBe(200);
    expect(await chargesFor(answer.transaction.tx_id)).toHaveLength(1);
    expect(await balance(who, 'CAD')).toEqual({ available: 2_500, total: 2_500 });
  });

  it('declines 4000000000000002 and credits nothing', async () => {
    const { who, card } = await buyer(DECLINED_CARD);
    expectRefusal(
      await deposit(who, { amount: 2_500, paymentMethodId: card }),
      422,
      errorCodes.cardDeclined,
      'declined',
    );
    expect(await balance(who, 'USD')).toEqual({ available: 0, total: 0 });
  });

  it.each([
    [{ amount: 99 }, 'amount', 'Please enter amount should be greater than 1'],
    [{ amount: 50_001 }, 'amount', 'Please enter amount should be less than 500'],
    [{ amount: undefined }, 'amount', 'Please enter amount'],
    [{ amount: 12.5 }, 'amount', 'Please enter valid amount'],
    [{ paymentMethodId: undefined }, 'paymentMethodId', 'Please select Payment Method'],
    [{ paymentMethodId: 'card' }, 'paymentMethodId', 'Please select Payment Method'],
  ])('refuses %j: %s reads %s', async (overrides, field, message) => {
    const { who, card } = await buyer();
    const response = await deposit(who, { amount: 2_500, currency: 'USD', paymentMethodId: card, ...overrides });
    expect(response.statusCode, response.body).toBe(400);
    expect(problems(response.body).map((each) => [each.field, each.message])).toContainEqual([field, message]);
  });
});

describe('withdraw', () => {
  const withdraw = (who: SignedIn, body: unknown) => who.browser.post('/api/account/withdraw', body);

  it('reserves the money and shows the withdrawal pending, to a bank account or a card', async () => {
    const who = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(who.user.user_id), 10_000, 'USD');
    for (const paymentMethodId of [await storedBank(who), await storedCard(subject, who)]) {
      const response = await withdraw(who, { amount: 3_000, currency: 'USD', paymentMethodId });
      expect(response.statusCode, response.body).toBe(200);
      expect(transactionResponse.parse(response.json()).transaction).toMatchObject({
        state: 'pending',
        amount: 3_000,
        currency: 'USD',
        debit_credit: 'D',
        payment_method: String(paymentMethodId),
      });
    }
    expect(await balance(who, 'USD')).toEqual({ available: 4_000, total: 10_000 });
  });

  it('refuses more than the balance', async () => {
    const who = await signedUp(subject, 'personal');
    expectRefusal(
      await withdraw(who, { amount: 100, currency: 'USD', paymentMethodId: await storedBank(who) }),
      422,
      errorCodes.insufficientFunds,
      'empty wallet',
    );
  });

  it('states the cash, the rate and the destination of a coin withdrawal, at the quote confirmed', async () => {
    const who = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(who.user.user_id), 100_00, 'CON');
    const card = await storedCard(subject, who);
    const quoted = await who.browser.post('/api/account/quote', {
      from_currency: 'CON',
      to_currency: 'CAD',
      amount_in: 50_00,
    });
    const quote = quoteResponse.parse(quoted.json()).quote;
    const response = await withdraw(who, {
      amount: 50_00,
      currency: 'CON',
      paymentMethodId: card,
      payout_currency: 'CAD',
      quote_id: quote.quote_id,
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = withdrawResponse.parse(response.json());
    // 50 coins at 15.6 a Canadian dollar: $3.205…, paid out as $3.20.
    expect(answer.payout).toEqual({ amount: 3_20, currency: 'CAD', label: 'Visa •••• 4242' });
    expect(answer.quote).toEqual(quote);
    expect(answer.quote).toMatchObject({ amount_in: 50_00, amount_out: 3_20, rate: '15.6', fee: 0 });
    // The payout is the request's event's, which whoever pays it out reads.
    expect(await requestedPayoutOf(subject.database.db, answer.transaction.tx_id)).toEqual({
      amount: 3_20,
      currency: 'CAD',
    });
    expect(await balance(who, 'CON')).toEqual({ available: 50_00, total: 100_00 });

    // Without a quote: the current price, in US dollars unless asked, to a bank account by its last four digits.
    const plain = await withdraw(who, { amount: 20_00, currency: 'CON', paymentMethodId: await storedBank(who) });
    expect(plain.statusCode, plain.body).toBe(200);
    const { payout, quote: used } = withdrawResponse.parse(plain.json());
    expect(payout).toMatchObject({ amount: 1_00, currency: 'USD' });
    expect(payout.label).toMatch(/^Bank •••• \d{4}$/);
    expect(used).toMatchObject({ from_currency: 'CON', to_currency: 'USD', amount_in: 20_00, amount_out: 1_00 });
  });

  it('answers a withdrawal at a used quote 409 with a fresh one, and reserves nothing', async () => {
    const who = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(who.user.user_id), 100_00, 'CON');
    const card = await storedCard(subject, who);
    const quote = quoteResponse.parse(
      (
        await who.browser.post('/api/account/quote', { from_currency: 'CON', to_currency: 'USD', amount_in: 40_00 })
      ).json(),
    ).quote;
    const body = { amount: 40_00, currency: 'CON', paymentMethodId: card, quote_id: quote.quote_id };
    expect((await withdraw(who, body)).statusCode).toBe(200);
    const again = await withdraw(who, body);
    expectRefusal(again, 409, errorCodes.quoteUnusable, 'a used quote');
    expect(staleQuoteEnvelope.parse(again.json()).quote).toMatchObject({ amount_in: 40_00, amount_out: 2_00 });
    expect(await balance(who, 'CON')).toEqual({ available: 60_00, total: 100_00 });
  });

  it('reserves once for retries with the same Idempotency-Key, and never more than the balance under concurrent requests', async () => {
    const who = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(who.user.user_id), 10_000, 'USD');
    const bank = await storedBank(who);
    const keyed = (key: string) =>
      who.browser.request(
        'POST',
        '/api/account/withdraw',
        { amount: 3_000, currency: 'USD', paymentMethodId: bank },
        { 'idempotency-key': key },
      );
    // Eight requests under three keys: three withdrawals of 30.00 fit in 100.00, each key reserves once.
    const answers = await Promise.all(['a', 'a', 'a', 'b', 'b', 'c', 'c', 'c'].map((key) => keyed(`withdraw-${key}`)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => transactionResponse.parse(answer.json()).transaction.tx_id)).size).toBe(3);
    expect(await balance(who, 'USD')).toEqual({ available: 1_000, total: 10_000 });

    // Four more keys race for the last 10.00: none can be reserved, and nothing goes below zero.
    const late = await Promise.all(['d', 'e', 'f', 'g'].map((key) => keyed(`withdraw-${key}`)));
    for (const answer of late) expectRefusal(answer, 422, errorCodes.insufficientFunds, 'over the balance');
    expect(await balance(who, 'USD')).toEqual({ available: 1_000, total: 10_000 });
  });
});

describe("someone else's payment method", () => {
  it('is 404 (10501) for purchase, deposit-fund and withdraw, and charges nothing', async () => {
    const { who, card } = await buyer();
    const mallory = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(mallory.user.user_id), 10_000, 'USD');
    for (const [url, body] of [
      ['/api/account/purchase', { payment_method_id: card, coin_amt: 10_000, currency: 'USD' }],
      ['/api/account/deposit-fund', { amount: 2_500, paymentMethodId: card }],
      ['/api/account/withdraw', { amount: 100, currency: 'USD', paymentMethodId: card }],
    ] as const) {
      expectRefusal(await mallory.browser.post(url, body), 404, errorCodes.paymentMethodNotFound, url);
    }
    expect(await ledgerRowsOf(who)).toBe(0);
    expect(await balance(mallory, 'USD')).toEqual({ available: 10_000, total: 10_000 });
  });
});

describe('an unreachable card processor', () => {
  it('answers 503 with a clear message after the timeout, and mints nothing', async () => {
    const { who, card } = await buyer();
    const cut = await createTestApp({
      ...testAppOptions,
      database: subject.database,
      cardProcessor: { url: 'http://127.0.0.1:9', timeoutMs: 300 },
    });
    try {
      const browser = await cut.browser();
      browser.cookie = who.browser.cookie;
      browser.csrfToken = who.browser.csrfToken;
      const response = await browser.post('/api/account/purchase', {
        payment_method_id: card,
        coin_amt: 10_000,
        currency: 'USD',
      });
      expectRefusal(response, 503, errorCodes.unavailable, 'processor down');
      expect(response.json()).toMatchObject({ message: 'The card processor is not answering; please try again' });
      expect(await balance(who, 'CON')).toEqual({ available: 0, total: 0 });
    } finally {
      await cut.close();
    }
  });
});
