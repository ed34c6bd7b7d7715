import {
  balanceResponse,
  ledgerListResponse,
  merchantTransactionResponse,
  transactionDetailsResponse,
  transactionListResponse,
  transactionResponse,
  type TransactionView,
} from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { newCheckout } from '../../testing/checkout.ts';
import { checkoutSale } from '../../testing/merchant-space.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { storedBank, storedCard } from '../../testing/payment-methods.ts';

/** History rows that add up to the balance, and name cards and people (issue 35, items 4, 5 and 7). */

let subject: TestApp;
let shop: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  shop = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);

/** A new personal user with a full name on their profile. */
async function named(fullname: string) {
  const who = await signedUp(subject, 'personal');
  await subject.database.db.updateTable('users').set({ fullname }).where('user_id', '=', who.user.user_id).execute();
  return who;
}

async function send(from: SignedIn, to: SignedIn, body: Record<string, unknown>) {
  const response = await from.browser.post('/api/account/send-fund', { guser_id: to.user.guser_id, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return transactionResponse.parse(response.json()).transaction;
}

/** Every row of the person's history, page by page. */
async function wholeHistory(who: SignedIn): Promise<TransactionView[]> {
  const rows: TransactionView[] = [];
  for (let offset = 0; offset < 1_000; offset += 100) {
    const response = await who.browser.post('/api/account/transactions', { offset, limit: 100 });
    expect(response.statusCode, response.body).toBe(200);
    const page = transactionListResponse.parse(response.json());
    rows.push(...page.transactions);
    if (rows.length >= page.total) break;
  }
  return rows;
}

async function rowOf(who: SignedIn, txId: string) {
  const response = await who.browser.post('/api/account/transaction-details', { id: txId });
  expect(response.statusCode, response.body).toBe(200);
  return transactionDetailsResponse.parse(response.json()).transaction;
}

describe('a send paid by card', () => {
  it("moves nothing in the sender's wallet and names the card and what it was charged", async () => {
    const alice = await named('Alice Maple');
    const bob = await named('Bob Birch');
    const card = await storedCard(subject, alice);
    const sent = await send(alice, bob, { amount: 15_00, currency: 'CON', paymentMethodId: card });

    const seen = await rowOf(alice, sent.tx_id);
    expect(seen).toMatchObject({ amount: 15_00, currency: 'CON', debit_credit: 'D', wallet_change: 0 });
    // 15 coins at the price list's 20 coins a US dollar: $0.75.
    expect(seen.funding).toEqual({ amount: 75, currency: 'USD', label: 'Visa •••• 4242' });
    expect(seen.quote).toMatchObject({ quote_id: null, from_currency: 'USD', to_currency: 'CON', amount_in: 75 });
    expect(seen.counterparty).toEqual({ kind: 'user', name: 'Bob Birch', username: bob.user.username });
    // The hold is on Bob's side: Alice is not told of it.
    expect(seen.hold_amount).toBeNull();

    const received = await rowOf(bob, sent.tx_id);
    expect(received).toMatchObject({ wallet_change: 15_00, funding: null, hold_amount: 15_00 });
    expect(received.counterparty).toEqual({ kind: 'user', name: 'Alice Maple', username: alice.user.username });
  });
});

describe('a send from the wallet', () => {
  it('names the recipient on the P2P row and takes the amount from the wallet', async () => {
    const alice = await named('Alice Cedar');
    const bob = await signedUp(subject, 'personal');
    await fund(subject, owner(alice), 50_00);
    const sent = await send(alice, bob, { amount: 20_00, currency: 'CON' });

    const [row] = (await wholeHistory(alice)).filter((each) => each.tx_id === sent.tx_id);
    expect(row).toMatchObject({ wallet_change: -20_00, funding: null, quote: null });
    // Without a full name the person is their username.
    expect(row?.counterparty).toEqual({ kind: 'user', name: bob.user.username, username: bob.user.username });
  });
});

describe("a send's answer", () => {
  it('is the row the history reads back, for every kind of send and for its replay', async () => {
    const alice = await named('Alice Rowan');
    const bob = await named('Bob Alder');
    await fund(subject, owner(alice), 90_00);
    const card = await storedCard(subject, alice);
    const sends: Record<string, unknown>[] = [
      { amount: 12_00, currency: 'CON', comment: 'Lunch' },
      // No dollars in the wallet: paid from coins at the current price, with its quote.
      { amount: 1_50, currency: 'USD' },
      { amount: 8_00, currency: 'CON', paymentMethodId: card },
    ];
    for (const body of sends) {
      const sent = await send(alice, bob, body);
      expect(sent, JSON.stringify(body)).toEqual({ ...(await rowOf(alice, sent.tx_id)), cart: [] });
    }
    // To a merchant's user: a purchase, as the merchant's wallet received it.
    const toShop = await send(alice, shop, { amount: 3_00, currency: 'CON' });
    expect(toShop).toEqual({ ...(await rowOf(alice, toShop.tx_id)), cart: [] });

    const keyed = { guser_id: bob.user.guser_id, amount: 2_00, currency: 'CON' };
    const first = await alice.browser.request('POST', '/api/account/send-fund', keyed, { 'idempotency-key': 'row-1' });
    const again = await alice.browser.request('POST', '/api/account/send-fund', keyed, { 'idempotency-key': 'row-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(transactionResponse.parse(again.json()).transaction).toEqual(
      transactionResponse.parse(first.json()).transaction,
    );
  });
});

describe("a card payment's, a withdrawal's and a checkout's answer", () => {
  /** The `transaction` of a 200 answer, as the contract reads it. */
  async function answered(who: SignedIn, path: string, body: Record<string, unknown>) {
    const response = await who.browser.post(path, body);
    expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    return transactionResponse.parse(response.json()).transaction;
  }

  it('is the row the history reads back', async () => {
    const alice = await named('Alice Hazel');
    await fund(subject, owner(alice), 60_00);
    const card = await storedCard(subject, alice);
    const bank = await storedBank(alice);
    const answers = [
      await answered(alice, '/api/account/purchase', { payment_method_id: card, coin_amt: 100_00, currency: 'USD' }),
      await answered(alice, '/api/account/deposit-fund', { amount: 7_00, currency: 'CAD', paymentMethodId: card }),
      await answered(alice, '/api/account/withdraw', { amount: 5_00, currency: 'CON', paymentMethodId: bank }),
      await answered(alice, '/api/account/withdraw', { amount: 2_00, currency: 'CAD', paymentMethodId: card }),
    ];
    for (const paymentMethodId of [undefined, card]) {
      const checkout = await newCheckout(shop, {
        cart: [{ sku: 'MUG-01', name: 'Maple mug', price: 3_00 }],
        total: 3_00,
        currency: 'CON',
      });
      answers.push(
        await answered(alice, '/api/checkout/pay', { id: checkout.id, token: checkout.token, paymentMethodId }),
      );
    }
    for (const answer of answers)
      expect(answer, answer.type).toEqual({ ...(await rowOf(alice, answer.tx_id)), cart: answer.cart });
  });
});

describe('a withdrawal', () => {
  it('names the bank account it pays out to, and moves the wallet only once paid out', async () => {
    const alice = await named('Alice Larch');
    await fund(subject, owner(alice), 40_00);
    const bank = await storedBank(alice);
    const response = await alice.browser.post('/api/account/withdraw', {
      amount: 25_00,
      currency: 'CON',
      paymentMethodId: bank,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = transactionResponse.parse(response.json());
    const stored = await subject.database.db
      .selectFrom('payment_methods')
      .select('type_specific')
      .where('payment_method_id', '=', bank)
      .executeTakeFirstOrThrow();
    const lastFour = String(stored.type_specific.account_no).slice(-4);
    // Reserved, not yet paid out: the balance has not moved, and neither has the row.
    expect(transaction).toMatchObject({
      state: 'pending',
      wallet_change: 0,
      funding: { amount: 25_00, currency: 'CON', label: `Bank •••• ${lastFour}` },
      counterparty: null,
    });
    expect(JSON.stringify(transaction)).not.toContain(String(stored.type_specific.account_no));
  });
});

describe('a partial return', () => {
  it('leaves a sale of 25 partly refunded after 5 are returned, and refunded only once all are', async () => {
    const sale = await checkoutSale(subject, shop, { total: 25_00 });
    const returned = await shop.browser.post('/api/merchant/return-sale', {
      tx_id: sale.txId,
      amount: 5_00,
      reason: 'One cup short',
    });
    expect(returned.statusCode, returned.body).toBe(200);

    const saleView = async () =>
      merchantTransactionResponse.parse((await shop.browser.get(`/api/merchant/sale?tx_id=${sale.txId}`)).json())
        .transaction;
    expect(await saleView()).toMatchObject({
      refunded: false,
      partially_refunded: true,
      refunded_amount: 5_00,
      refundable_amount: 20_00,
    });
    // The buyer sees the same, and the shop by name on both rows.
    const bought = await rowOf(sale.buyer, sale.txId);
    expect(bought).toMatchObject({ refunded: false, partially_refunded: true, refundable_amount: 20_00 });
    expect(bought.counterparty).toEqual({ kind: 'merchant', name: 'Maple Coffee', username: null });
    const returnTxId = merchantTransactionResponse.parse(returned.json()).transaction.tx_id;
    expect(await rowOf(sale.buyer, returnTxId)).toMatchObject({ wallet_change: 5_00 });

    const rest = await shop.browser.post('/api/merchant/return-sale', {
      tx_id: sale.txId,
      amount: 20_00,
      reason: 'All of it',
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(await saleView()).toMatchObject({
      refunded: true,
      partially_refunded: false,
      refunded_amount: 25_00,
      refundable_amount: 0,
    });
  });
});

describe('a whole history', () => {
  it('sums to the balance in every currency, rows and ledger alike', async () => {
    const alice = await named('Alice Spruce');
    const bob = await signedUp(subject, 'personal');
    const card = await storedCard(subject, alice);
    const bought = await alice.browser.post('/api/account/purchase', {
      payment_method_id: card,
      coin_amt: 100_00,
      currency: 'USD',
    });
    expect(bought.statusCode, bought.body).toBe(200);
    await fund(subject, owner(alice), 30_00, 'USD');
    await send(alice, bob, { amount: 15_00, currency: 'CON', paymentMethodId: card });
    await send(alice, bob, { amount: 7_25, currency: 'CON' });
    await send(bob, alice, { amount: 1_00, currency: 'CON', paymentMethodId: await storedCard(subject, bob) });
    await checkoutSale(subject, shop, { total: 35_50, card: true, buyer: alice });
    const paid = await checkoutSale(subject, shop, { total: 3_00, buyer: alice });
    expect(
      (await shop.browser.post('/api/merchant/return-sale', { tx_id: paid.txId, amount: 1_00, reason: 'Late' }))
        .statusCode,
    ).toBe(200);

    const balance = balanceResponse.parse((await alice.browser.get('/api/account/balance')).json()).balance;
    const rows = await wholeHistory(alice);
    const ledger = ledgerListResponse.parse((await alice.browser.post('/api/account/ledger', { limit: 100 })).json());
    for (const line of balance.balances) {
      const rowSum = rows
        .filter((row) => row.currency === line.currency)
        .reduce((sum, row) => sum + row.wallet_change, 0);
      const ledgerSum = ledger.ledgers
        .filter((entry) => entry.currency === line.currency)
        .reduce((sum, entry) => sum + (entry.debit_credit === 'C' ? entry.amount : -entry.amount), 0);
      expect({ currency: line.currency, rows: rowSum, ledger: ledgerSum }).toEqual({
        currency: line.currency,
        rows: line.balance,
        ledger: line.balance,
      });
    }
    // The two card-paid rows moved nothing; the card's charges are on them.
    const byCard = rows.filter((row) => row.funding !== null && row.type !== 'purchase');
    expect(byCard.map((row) => row.wallet_change)).toEqual([0, 0]);
    expect(byCard.map((row) => row.funding?.label)).toEqual(['Visa •••• 4242', 'Visa •••• 4242']);
  });
});
