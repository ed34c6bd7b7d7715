import {
  errorCodes,
  paymentResponse,
  quoteResponse,
  staleQuoteEnvelope,
  transactionListResponse,
  type Quote,
} from '@peeks/contracts';
import { merchantOwnerId, userOwnerId, walletIdOf, type Currency } from '@peeks/ledger';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { newCheckout } from '../../testing/checkout.ts';

/**
 * A USD or CAD price paid from coins (issue 35, item 3): a checkout or a
 * merchant's QR priced in dollars, a payer who holds only coins.
 */

let subject: TestApp;
let now = new Date('2030-06-01T10:00:00Z');
beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, clock: () => now });
});
afterAll(() => subject.close());

/** $4.75 checkout of a new shop's; its cart is one line at that price. */
const dollarCart = (total: number, currency: Currency) => ({
  cart: [{ sku: 'LATTE', name: 'Latte', price: total }],
  total,
  currency,
});

async function payerWithCoins(coins: number) {
  const who = await signedUp(subject, 'personal');
  await fund(subject, userOwnerId(who.user.user_id), coins);
  return who;
}
const balanceOf = async (ownerId: string, currency: Currency) =>
  (await walletsOf(subject.database.db, ownerId)).find((wallet) => wallet.walletId === walletIdOf(ownerId, currency))
    ?.total ?? 0;
const coinsOf = (who: SignedIn) => balanceOf(userOwnerId(who.user.user_id), 'CON');
const quoteFor = async (who: SignedIn, currency: Currency, amountOut: number): Promise<Quote> => {
  const response = await who.browser.post('/api/account/quote', {
    from_currency: 'CON',
    to_currency: currency,
    amount_out: amountOut,
  });
  expect(response.statusCode, response.body).toBe(200);
  return quoteResponse.parse(response.json()).quote;
};
const payCheckout = (who: SignedIn, body: Record<string, unknown>, key?: string) =>
  who.browser.request('POST', '/api/checkout/pay', body, key === undefined ? {} : { 'idempotency-key': key });
const sendFund = (who: SignedIn, body: Record<string, unknown>, key?: string) =>
  who.browser.request('POST', '/api/account/send-fund', body, key === undefined ? {} : { 'idempotency-key': key });
const ledgerRowsOf = async (txId: string) =>
  (await subject.database.db.selectFrom('ledger_entries').select('tx_id').where('tx_id', '=', txId).execute()).length;
const quotesClaimedFor = async (txId: string) =>
  (await subject.database.db.selectFrom('quotes').select('quote_id').where('tx_id', '=', txId).execute()).length;
const checkoutTxId = async (id: number) =>
  (
    await subject.database.db
      .selectFrom('checkout_sessions')
      .select('tx_id')
      .where('checkout_id', '=', id)
      .executeTakeFirstOrThrow()
  ).tx_id;

describe('POST /api/checkout/pay, a dollar total paid from coins', () => {
  it('pays $4.75 USD with 95 coins at the current price, credits the shop in USD, and states the quote', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'USD'));
    const response = await payCheckout(payer, checkout);
    expect(response.statusCode, response.body).toBe(200);
    const { transaction, quote } = paymentResponse.parse(response.json());
    expect(quote).toMatchObject({
      from_currency: 'CON',
      to_currency: 'USD',
      amount_in: 95_00,
      amount_out: 4_75,
      fee: 0,
    });
    // The payer's row is the coins their wallet gave, with the quote, naming the shop.
    expect(transaction).toMatchObject({
      type: 'sale',
      debit_credit: 'D',
      amount: 95_00,
      currency: 'CON',
      wallet_change: -95_00,
      quote: {
        quote_id: quote?.quote_id,
        from_currency: 'CON',
        to_currency: 'USD',
        amount_in: 95_00,
        amount_out: 4_75,
      },
    });
    expect(transaction.counterparty).toMatchObject({ kind: 'merchant' });
    expect(await coinsOf(payer)).toBe(5_00);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'USD')).toBe(4_75);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'CON')).toBe(0);
  });

  it('pays a CAD total at the quote the payer confirmed: $4.75 CAD at 0.78 is 74.10 coins', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'CAD'));
    const quote = await quoteFor(payer, 'CAD', 4_75);
    expect(quote.amount_in).toBe(74_10);
    const response = await payCheckout(payer, { ...checkout, quote_id: quote.quote_id });
    expect(response.statusCode, response.body).toBe(200);
    expect(paymentResponse.parse(response.json()).quote?.quote_id).toBe(quote.quote_id);
    expect(await coinsOf(payer)).toBe(100_00 - 74_10);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'CAD')).toBe(4_75);
  });

  it('moves the money once when two pays of one checkout race, and answers both with the same transaction', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'USD'));
    const answers = await Promise.all([payCheckout(payer, checkout), payCheckout(payer, checkout)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const [first, second] = answers.map((answer) => paymentResponse.parse(answer.json()));
    expect(second?.transaction.tx_id).toBe(first?.transaction.tx_id);
    expect(second?.quote?.quote_id).toBe(first?.quote?.quote_id);
    expect(await coinsOf(payer)).toBe(5_00);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'USD')).toBe(4_75);
  });

  it('after a crash between claiming the quote and the ledger, the next pay uses that quote and pays once', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'USD'));
    const quote = await quoteFor(payer, 'USD', 4_75);
    // The first request claimed its quote for the session's transaction, then died before the ledger wrote it.
    await subject.database.db
      .updateTable('quotes')
      .set({ tx_id: await checkoutTxId(checkout.id) })
      .where('quote_id', '=', quote.quote_id)
      .execute();
    const response = await payCheckout(payer, checkout);
    expect(response.statusCode, response.body).toBe(200);
    expect(paymentResponse.parse(response.json()).quote?.quote_id).toBe(quote.quote_id);
    expect(await coinsOf(payer)).toBe(5_00);
  });

  it('refuses an expired quote with 409 and a fresh one to show, and writes nothing', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'USD'));
    const quote = await quoteFor(payer, 'USD', 4_75);
    now = new Date(now.getTime() + 61_000);
    const response = await payCheckout(payer, { ...checkout, quote_id: quote.quote_id });
    expectRefusal(response, 409, errorCodes.quoteExpired, 'quote_id');
    const fresh = staleQuoteEnvelope.parse(response.json()).quote;
    expect(fresh).toMatchObject({ from_currency: 'CON', to_currency: 'USD', amount_out: 4_75 });
    expect(fresh.quote_id).not.toBe(quote.quote_id);
    const txId = await checkoutTxId(checkout.id);
    expect([await ledgerRowsOf(txId), await quotesClaimedFor(txId), await coinsOf(payer)]).toEqual([0, 0, 100_00]);
    // Confirming the fresh quote pays.
    const again = await payCheckout(payer, { ...checkout, quote_id: fresh.quote_id });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('refuses a payer short of coins with 422 Insufficient funds, and writes nothing', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(90_00);
    const checkout = await newCheckout(shop, dollarCart(4_75, 'USD'));
    const quotesBefore = await subject.database.db.selectFrom('quotes').select('quote_id').execute();
    expectRefusal(await payCheckout(payer, checkout), 422, errorCodes.insufficientFunds, 'amount');
    const txId = await checkoutTxId(checkout.id);
    expect([await ledgerRowsOf(txId), await quotesClaimedFor(txId), await coinsOf(payer)]).toEqual([0, 0, 90_00]);
    const quotesAfter = await subject.database.db.selectFrom('quotes').select('quote_id').execute();
    expect(quotesAfter.length).toBe(quotesBefore.length);
  });
});

describe('POST /api/account/send-fund, a merchant QR in USD paid from coins', () => {
  it('pays the shop in USD, and a retry with the same Idempotency-Key answers the same transaction, moving nothing', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(200_00);
    const quote = await quoteFor(payer, 'USD', 4_75);
    const body = { guser_id: shop.user.guser_id, amount: 4_75, currency: 'USD', quote_id: quote.quote_id };
    const first = await sendFund(payer, body, 'qr-coffee-1');
    expect(first.statusCode, first.body).toBe(200);
    const retry = await sendFund(payer, body, 'qr-coffee-1');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const [a, b] = [first, retry].map((answer) => paymentResponse.parse(answer.json()));
    expect(b?.transaction.tx_id).toBe(a?.transaction.tx_id);
    expect(b?.quote?.quote_id).toBe(quote.quote_id);
    expect(await coinsOf(payer)).toBe(200_00 - 95_00);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'USD')).toBe(4_75);
  });

  it('pays from the USD wallet when it covers the amount and no quote is named', async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    await fund(subject, userOwnerId(payer.user.user_id), 10_00, 'USD');
    const response = await sendFund(payer, { guser_id: shop.user.guser_id, amount: 4_75, currency: 'USD' });
    expect(response.statusCode, response.body).toBe(200);
    expect(paymentResponse.parse(response.json()).quote).toBeNull();
    expect([await coinsOf(payer), await balanceOf(userOwnerId(payer.user.user_id), 'USD')]).toEqual([100_00, 5_25]);
  });

  it("refuses someone else's quote with 409 and a fresh one", async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(100_00);
    const other = await payerWithCoins(100_00);
    const theirs = await quoteFor(other, 'USD', 4_75);
    const response = await sendFund(payer, {
      guser_id: shop.user.guser_id,
      amount: 4_75,
      currency: 'USD',
      quote_id: theirs.quote_id,
    });
    expectRefusal(response, 409, errorCodes.quoteUnusable, 'quote_id');
    expect(staleQuoteEnvelope.parse(response.json()).quote.amount_out).toBe(4_75);
    expect(await coinsOf(payer)).toBe(100_00);
  });

  it("keeps every person's history adding up to their balance, per currency, and the ledger verified", async () => {
    const shop = await signedUp(subject, 'business');
    const payer = await payerWithCoins(500_00);
    await fund(subject, userOwnerId(payer.user.user_id), 2_00, 'USD');
    // From coins (dollars short), from the dollars, from coins in CAD, and a checkout from coins.
    const answers = [
      await sendFund(payer, { guser_id: shop.user.guser_id, amount: 4_75, currency: 'USD' }),
      await sendFund(payer, { guser_id: shop.user.guser_id, amount: 1_00, currency: 'USD' }),
      await sendFund(payer, { guser_id: shop.user.guser_id, amount: 3_00, currency: 'CAD' }),
      await payCheckout(payer, await newCheckout(shop, dollarCart(12_00, 'USD'))),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => paymentResponse.parse(answer.json()).quote?.amount_in ?? null)).toEqual([
      95_00,
      null,
      46_80,
      240_00,
    ]);
    for (const who of [payer, shop]) {
      const list = await who.browser.post('/api/account/transactions', { limit: 100 });
      expect(list.statusCode, list.body).toBe(200);
      const { transactions } = transactionListResponse.parse(list.json());
      const ownerId = who === shop ? merchantOwnerId(shop.merchantId) : userOwnerId(payer.user.user_id);
      for (const currency of ['CON', 'USD', 'CAD'] as const) {
        const sum = transactions
          .filter((row) => row.currency === currency)
          .reduce((total, row) => total + row.wallet_change, 0);
        expect({ currency, sum }).toEqual({ currency, sum: await balanceOf(ownerId, currency) });
      }
    }
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'USD')).toBe(4_75 + 1_00 + 12_00);
    const report = await verifyLedger(subject.database.db);
    expect({ differences: report.differences, invariantFailures: report.invariantFailures }).toEqual({
      differences: [],
      invariantFailures: [],
    });
  });
});
