import {
  errorCodes,
  merchantDashboardResponse,
  merchantTransactionsResponse,
  reportResponse,
  settlementResponse,
  settlementsResponse,
  merchantTransactionResponse,
  paymentResponse,
  transactionListResponse,
} from '@peeks/contracts';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand, verifyLedger } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app.ts';
import {
  CardProcessorUnavailable,
  GIVE_UP_AFTER_MS,
  retryStalledCardReturns,
  STALLED_AFTER_MS,
} from '@peeks/card-processor';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { crashingBefore } from '../../testing/card-payments.ts';
import { newCheckout } from '../../testing/checkout.ts';
import { checkoutSale } from '../../testing/merchant-space.ts';
import { fund } from '../../testing/money.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';

let subject: TestApp;
let merchant: SignedIn;
/** The processor's partial refunds fail this many more times before reaching it: a process dying after the ledger wrote. */
let refundsToFail = 0;
/** The processor refuses this many more partial refunds outright, as it would one past what is left of a charge. */
let refundsToRefuse = 0;

function failingRefunds(app: App) {
  const real = app.cardCharges.refundPart.bind(app.cardCharges);
  app.cardCharges.refundPart = (request) => {
    if (refundsToFail > 0) {
      refundsToFail -= 1;
      return Promise.reject(new CardProcessorUnavailable('simulated: the process died before the refund'));
    }
    if (refundsToRefuse > 0) {
      refundsToRefuse -= 1;
      return Promise.resolve({ refused: 'simulated: the processor refused the refund' });
    }
    return real(request);
  };
}

beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, holdHours: 0, extend: failingRefunds });
  merchant = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

const returnSale = (who: SignedIn, body: Record<string, unknown>, key?: string) =>
  who.browser.request('POST', '/api/merchant/return-sale', body, key === undefined ? {} : { 'idempotency-key': key });

async function available(ownerId: string, currency = 'USD') {
  const row = await subject.database.db
    .selectFrom('wallets')
    .select('available')
    .where('wallet_id', '=', `wallet:${ownerId}:${currency}`)
    .executeTakeFirstOrThrow();
  return row.available;
}

async function processorRefunds(returnTxId: string) {
  return subject.database.db.selectFrom('sandbox_refunds').selectAll().where('refund_key', '=', returnTxId).execute();
}

describe('returning a sale', () => {
  it("gives half of a wallet-paid checkout back to the buyer's wallet and marks the sale partly refunded", async () => {
    const sale = await checkoutSale(subject, merchant, { total: 10_00 });
    const response = await returnSale(merchant, { tx_id: sale.txId, amount: 5_00, reason: 'Cold coffee' }, 'half');
    expect(response.statusCode, response.body).toBe(200);
    const { transaction } = merchantTransactionResponse.parse(response.json());
    expect(transaction).toMatchObject({
      type: 'return',
      state: 'completed',
      parent_tx_id: sale.txId,
      amount: 5_00,
      debit_credit: 'D',
      merchant_id: merchant.merchantId,
    });
    expect(await available(userOwnerId(sale.buyer.user.user_id))).toBe(5_00);

    const saleView = await merchant.browser.get(`/api/merchant/sale?tx_id=${sale.txId}`);
    expect(merchantTransactionResponse.parse(saleView.json()).transaction).toMatchObject({
      refunded: false,
      partially_refunded: true,
      refunded_amount: 5_00,
      refundable_amount: 5_00,
    });
    expect(merchantTransactionResponse.parse(saleView.json()).transaction.return_date).not.toBeNull();

    // The same request again (same Idempotency-Key) is the same return: nothing moves twice.
    const again = await returnSale(merchant, { tx_id: sale.txId, amount: 5_00, reason: 'Cold coffee' }, 'half');
    expect(merchantTransactionResponse.parse(again.json()).transaction.tx_id).toBe(transaction.tx_id);
    expect(await available(userOwnerId(sale.buyer.user.user_id))).toBe(5_00);
    // The same key for another request is refused.
    const reused = await returnSale(merchant, { tx_id: sale.txId, amount: 1_00, reason: 'Other' }, 'half');
    expect(reused.statusCode).toBe(409);

    // The ledger's fan-out job for the `return` webhook was enqueued with the return.
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'webhook-fan-out' AND data->>'txId' = ${transaction.tx_id}
    `.execute(subject.database.db);
    expect(rows[0]?.count).toBe(1);
  });

  /** A buyer with 100.00 coins pays a $4.75 latte from them (95.00 coins at 20 a dollar). */
  async function latteSoldForCoins() {
    const buyer = await signedUp(subject, 'personal');
    const buyerId = userOwnerId(buyer.user.user_id);
    await fund(subject, buyerId, 100_00);
    const checkout = await newCheckout(merchant, {
      cart: [{ sku: 'LATTE', name: 'Latte', price: 4_75 }],
      total: 4_75,
      currency: 'USD',
    });
    const paid = await buyer.browser.post('/api/checkout/pay', checkout);
    expect(paid.statusCode, paid.body).toBe(200);
    return { buyer, buyerId, saleTxId: paymentResponse.parse(paid.json()).transaction.tx_id };
  }

  it('gives a dollar price paid from coins back as coins, by share, the last return taking the remainder', async () => {
    const { buyer, buyerId, saleTxId } = await latteSoldForCoins();
    expect(await available(buyerId, 'CON')).toBe(5_00);

    // $1.00 of $4.75 is 20.00 of the 95.00 coins; the rest gives back the other 75.00, a retry nothing more.
    const first = await returnSale(merchant, { tx_id: saleTxId, amount: 1_00, reason: 'Too hot' }, 'coins-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(await available(buyerId, 'CON')).toBe(25_00);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const rest = await returnSale(merchant, { tx_id: saleTxId, amount: 3_75, reason: 'Spilled' }, 'coins-2');
      expect(rest.statusCode, rest.body).toBe(200);
    }
    expect(await available(buyerId, 'CON')).toBe(100_00);

    const list = await buyer.browser.post('/api/account/transactions', { limit: 100 });
    const { transactions } = transactionListResponse.parse(list.json());
    const returns = transactions.filter((row) => row.type === 'return');
    expect(returns.map((row) => [row.currency, row.wallet_change]).sort()).toEqual([
      ['CON', 20_00],
      ['CON', 75_00],
    ]);
    expect(transactions.reduce((sum, row) => sum + (row.currency === 'CON' ? row.wallet_change : 0), 0)).toBe(100_00);
    const report = await verifyLedger(subject.database.db);
    expect({ differences: report.differences, invariantFailures: report.invariantFailures }).toEqual({
      differences: [],
      invariantFailures: [],
    });
  });

  it('gives a coin-paid sale back once under racing returns: never more coins than the sale took', async () => {
    const { buyerId, saleTxId } = await latteSoldForCoins();

    // Six returns of $1.00 race for a $4.75 sale: four go through, the rest find too little left.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        returnSale(merchant, { tx_id: saleTxId, amount: 1_00, reason: 'Race' }, `coin-race-${String(index)}`),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 422, 422]);
    // $4.00 of $4.75 is 80.00 of the 95.00 coins, whatever order the returns took.
    expect(await available(buyerId, 'CON')).toBe(5_00 + 80_00);
    const report = await verifyLedger(subject.database.db);
    expect(report.invariantFailures).toEqual([]);
  });

  it('refuses more than what is left, with the field and the words for it, and writes nothing', async () => {
    const sale = await checkoutSale(subject, merchant, { total: 4_00 });
    expect((await returnSale(merchant, { tx_id: sale.txId, amount: 3_00, reason: 'Late' })).statusCode).toBe(200);
    const response = await returnSale(merchant, { tx_id: sale.txId, amount: 1_01, reason: 'Late' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      response: 'error',
      errors: [
        {
          code: errorCodes.returnExceedsSale,
          field: 'amount',
          message: 'The amount is more than what is left of the sale to return',
        },
      ],
    });
    const blank = await returnSale(merchant, { tx_id: sale.txId, amount: 1_00, reason: '' });
    expect(blank.statusCode).toBe(400);
    expect(await available(userOwnerId(sale.buyer.user.user_id))).toBe(3_00);
  });

  it('never returns more than the sale under concurrent returns and retries', async () => {
    const sale = await checkoutSale(subject, merchant, { total: 10_00 });
    // Twelve keys of 1.50 each, every one sent three times at once: at most six of them fit in 10.00.
    const attempts = Array.from({ length: 12 }, (_, key) =>
      Array.from({ length: 3 }, () =>
        returnSale(merchant, { tx_id: sale.txId, amount: 1_50, reason: 'Batch' }, `concurrent-${key}`),
      ),
    ).flat();
    const answers = await Promise.all(attempts);
    for (const answer of answers) expect([200, 422], answer.body).toContain(answer.statusCode);
    const returned = await subject.database.db
      .selectFrom('ledger_transactions')
      .select(['tx_id', 'amount'])
      .where('parent_tx_id', '=', sale.txId)
      .execute();
    expect(returned).toHaveLength(6);
    expect(await available(userOwnerId(sale.buyer.user.user_id))).toBe(9_00);
    const okIds = new Set(
      answers
        .filter((each) => each.statusCode === 200)
        .map((each) => merchantTransactionResponse.parse(each.json()).transaction.tx_id),
    );
    expect(okIds.size).toBe(6);
  });

  it('refunds a card-paid sale to the card once, and finishes after a crash on either side of the processor', async () => {
    const sale = await checkoutSale(subject, merchant, { total: 8_00, card: true });
    const paid = await returnSale(merchant, { tx_id: sale.txId, amount: 2_00, reason: 'Wrong size' }, 'card-1');
    expect(paid.statusCode, paid.body).toBe(200);
    const first = merchantTransactionResponse.parse(paid.json()).transaction;
    expect(first).toMatchObject({ state: 'completed', payment_method_type: 'CC' });
    expect(await processorRefunds(first.tx_id)).toMatchObject([{ amount: 2_00, currency: 'USD' }]);
    await returnSale(merchant, { tx_id: sale.txId, amount: 2_00, reason: 'Wrong size' }, 'card-1');
    expect(await processorRefunds(first.tx_id)).toHaveLength(1);

    // Dead after the ledger wrote the return, before the processor heard of it: pending, then finished by the retry.
    refundsToFail = 1;
    const cut = await returnSale(merchant, { tx_id: sale.txId, amount: 3_00, reason: 'Scratched' }, 'card-2');
    expect(cut.statusCode).toBe(503);
    const pending = await subject.database.db
      .selectFrom('ledger_transactions')
      .select(['tx_id', 'state'])
      .where('parent_tx_id', '=', sale.txId)
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(await processorRefunds(pending.tx_id)).toEqual([]);
    const resumed = await returnSale(merchant, { tx_id: sale.txId, amount: 3_00, reason: 'Scratched' }, 'card-2');
    expect(merchantTransactionResponse.parse(resumed.json()).transaction).toMatchObject({
      tx_id: pending.tx_id,
      state: 'completed',
    });
    expect(await processorRefunds(pending.tx_id)).toHaveLength(1);

    // Dead after the processor refunded, before the ledger confirmed it: the retry gets the same refund and confirms once.
    const crashed = await crashingBefore(subject.database.db, 'CardRefundConfirmed', () =>
      returnSale(merchant, { tx_id: sale.txId, amount: 3_00, reason: 'Broken' }, 'card-3'),
    );
    expect(crashed.statusCode).toBe(500);
    const finished = await returnSale(merchant, { tx_id: sale.txId, amount: 3_00, reason: 'Broken' }, 'card-3');
    const third = merchantTransactionResponse.parse(finished.json()).transaction;
    expect(third.state).toBe('completed');
    expect(await processorRefunds(third.tx_id)).toHaveLength(1);
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM events WHERE type = 'CardRefundConfirmed' AND data->>'txId' = ${third.tx_id}
    `.execute(subject.database.db);
    expect(rows[0]?.count).toBe(1);

    // 8.00 charged, 8.00 refunded in three parts: nothing is left on the card or the sale.
    const refunds = await subject.database.db.selectFrom('sandbox_refunds').select('amount').execute();
    expect(refunds.reduce((sum, each) => sum + each.amount, 0)).toBe(8_00);
    expect((await returnSale(merchant, { tx_id: sale.txId, amount: 1, reason: 'More' })).statusCode).toBe(422);
  });

  it('is finished by the retry when the merchant never asks again, refunding the card once', async () => {
    const sale = await checkoutSale(subject, merchant, { total: 6_00, card: true });
    const stalled = async (key: string, amount: number) => {
      refundsToFail = 1;
      const cut = await returnSale(merchant, { tx_id: sale.txId, amount, reason: 'Never arrived' }, key);
      expect(cut.statusCode).toBe(503);
      return subject.database.db
        .selectFrom('ledger_transactions')
        .select('tx_id')
        .where('parent_tx_id', '=', sale.txId)
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
    };
    const { app } = subject;
    const log = { info: () => undefined, warn: () => undefined, error: vi.fn() };
    const retryAt = (ms: number) =>
      retryStalledCardReturns({
        db: app.db,
        cardCharges: app.cardCharges,
        ledgerSettings: app.ledgerSettings,
        clock: () => new Date(Date.now() + ms),
        log,
      });

    const first = await stalled('stalled-1', 2_00);
    // A request may still be finishing it: too young to touch.
    expect(await retryAt(0)).toEqual({ finished: 0, failed: 0, flagged: 0, stillPending: 0 });
    // The processor still down: left pending for the next run, no error.
    refundsToFail = 1;
    expect(await retryAt(STALLED_AFTER_MS + 1_000)).toEqual({ finished: 0, failed: 0, flagged: 0, stillPending: 1 });
    expect(await processorRefunds(first.tx_id)).toEqual([]);
    // Two workers and the merchant's own retry at once: one refund, one confirmation.
    const [a, b, merchantRetry] = await Promise.all([
      retryAt(STALLED_AFTER_MS + 1_000),
      retryAt(STALLED_AFTER_MS + 1_000),
      returnSale(merchant, { tx_id: sale.txId, amount: 2_00, reason: 'Never arrived' }, 'stalled-1'),
    ]);
    // Each run found it pending (and saw it completed) or found it done already.
    for (const run of [a, b])
      expect([
        { finished: 1, failed: 0, flagged: 0, stillPending: 0 },
        { finished: 0, failed: 0, flagged: 0, stillPending: 0 },
      ]).toContainEqual(run);
    expect(merchantTransactionResponse.parse(merchantRetry.json()).transaction.state).toBe('completed');
    expect(await processorRefunds(first.tx_id)).toHaveLength(1);
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM events WHERE type = 'CardRefundConfirmed' AND data->>'txId' = ${first.tx_id}
    `.execute(app.db);
    expect(rows[0]?.count).toBe(1);

    // Nobody retries this one at all: the next run finishes it.
    const second = await stalled('stalled-2', 4_00);
    expect(await retryAt(STALLED_AFTER_MS + 1_000)).toEqual({ finished: 1, failed: 0, flagged: 0, stillPending: 0 });
    const finished = await app.db
      .selectFrom('ledger_transactions')
      .select('state')
      .where('tx_id', '=', second.tx_id)
      .executeTakeFirstOrThrow();
    expect(finished.state).toBe('completed');
    expect(await processorRefunds(second.tx_id)).toMatchObject([{ amount: 4_00 }]);
    expect(log.error).not.toHaveBeenCalled();
  });

  it("answers 404 for another merchant's sale and 403 without the permission", async () => {
    const other = await signedUp(subject, 'business');
    const sale = await checkoutSale(subject, merchant, { total: 2_00 });
    const response = await returnSale(other, { tx_id: sale.txId, amount: 1_00, reason: 'Not mine' });
    expect(response.statusCode).toBe(404);
    expect((await other.browser.get(`/api/merchant/sale?tx_id=${sale.txId}`)).statusCode).toBe(404);

    await subject.database.db
      .updateTable('merchant_users')
      .set({ perms: ['ACCEPT_PAYMENTS'] })
      .where('user_id', '=', other.user.user_id)
      .execute();
    const otherSale = await checkoutSale(subject, other, { total: 2_00 });
    expect((await returnSale(other, { tx_id: otherSale.txId, amount: 1_00, reason: 'No right' })).statusCode).toBe(403);
    expect((await other.browser.get('/api/merchant/dashboard')).statusCode).toBe(403);
    const personal = await signedUp(subject, 'personal');
    expect((await personal.browser.get('/api/merchant/transfers')).statusCode).toBe(403);
  });
});

describe('card returns of a coin sale (issue 33)', () => {
  // The probe's sale, at the price list's 20 coins a US dollar: 3,030 coins at checkout, paid by card, a
  // 152-cent charge (the probe's 3,000 coins now cost a round 150, which would hide a per-return rounding).
  const coinSale = async () => {
    const sale = await checkoutSale(subject, merchant, { total: 3_030, currency: 'CON', card: true });
    const charge = await subject.database.db
      .selectFrom('sandbox_charges')
      .select(['charge_id', 'amount', 'currency'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(charge).toMatchObject({ amount: 152, currency: 'USD' });
    return { ...sale, chargeId: charge.charge_id };
  };
  const returnsOf = (saleTxId: string) =>
    subject.database.db
      .selectFrom('ledger_transactions')
      .select(['tx_id', 'state', 'amount'])
      .where('parent_tx_id', '=', saleTxId)
      .execute();
  /** What the processor gave back to the card for the sale's returns, refund by refund. */
  async function cardRefunds(saleTxId: string) {
    const ids = (await returnsOf(saleTxId)).map((each) => each.tx_id);
    if (ids.length === 0) return [];
    const rows = await subject.database.db
      .selectFrom('sandbox_refunds')
      .select(['refund_key', 'amount'])
      .where('refund_key', 'in', ids)
      .execute();
    return rows.map((row) => row.amount);
  }
  const total = (amounts: number[]) => amounts.reduce((sum, each) => sum + each, 0);
  const merchantCoins = () => available(merchantOwnerId(merchant.merchantId), 'CON');
  let keys = 0;
  const key = () => `coin-return-${++keys}`;

  it('refunds 20 one-coin returns by what they are worth, and the whole charge once all is returned', async () => {
    const sale = await coinSale();
    for (let index = 0; index < 20; index++) {
      const response = await returnSale(merchant, { tx_id: sale.txId, amount: 1, reason: 'One coin' }, key());
      expect(response.statusCode, response.body).toBe(200);
    }
    // 20 coins are worth 20 × 152 / 3,030 = 1.003 cents: at most a cent over that, where each return paid a cent before.
    expect(total(await cardRefunds(sale.txId))).toBeLessThanOrEqual(2);
    expect((await returnsOf(sale.txId)).every((each) => each.state === 'completed')).toBe(true);
    const rest = await returnSale(merchant, { tx_id: sale.txId, amount: 3_010, reason: 'The rest' }, key());
    expect(merchantTransactionResponse.parse(rest.json()).transaction.state).toBe('completed');
    expect(total(await cardRefunds(sale.txId))).toBe(152);
  });

  it('refunds three returns of 1,010 by 152 in all, the last taking the remainder', async () => {
    const sale = await coinSale();
    for (let index = 0; index < 3; index++)
      expect(
        (await returnSale(merchant, { tx_id: sale.txId, amount: 1_010, reason: 'A third' }, key())).statusCode,
      ).toBe(200);
    expect((await cardRefunds(sale.txId)).sort()).toEqual([50, 51, 51]);
  });

  it('decides returns racing on one sale one after another, and a same-key retry refunds once', async () => {
    const sale = await coinSale();
    // Ten returns of 303 at once, each sent twice with its key: each refund is computed from the ones before it.
    const asks = Array.from({ length: 10 }, () => key()).flatMap((each) =>
      [1, 2].map(() => returnSale(merchant, { tx_id: sale.txId, amount: 303, reason: 'Racing' }, each)),
    );
    const answers = await Promise.all(asks);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const returns = await returnsOf(sale.txId);
    expect(returns).toHaveLength(10);
    expect(returns.every((each) => each.state === 'completed')).toBe(true);
    // Each computed on its own, or from the same returns so far, is 15 (150 in all): 152 is only reached in order.
    expect(total(await cardRefunds(sale.txId))).toBe(152);
    expect(await cardRefunds(sale.txId)).toHaveLength(10);

    const again = await coinSale();
    const once = key();
    const first = await returnSale(merchant, { tx_id: again.txId, amount: 1_515, reason: 'Half' }, once);
    const retried = await returnSale(merchant, { tx_id: again.txId, amount: 1_515, reason: 'Half' }, once);
    expect(merchantTransactionResponse.parse(retried.json()).transaction).toEqual(
      merchantTransactionResponse.parse(first.json()).transaction,
    );
    expect(await cardRefunds(again.txId)).toEqual([76]);
  });

  it("answers the processor's refusal as a 422, and gives the coins back to the merchant", async () => {
    const sale = await coinSale();
    // The card got its money back another way (a chargeback, say): nothing is left of the charge to refund.
    await subject.database.db
      .updateTable('sandbox_charges')
      .set({ refunded_at: new Date() })
      .where('charge_id', '=', sale.chargeId)
      .execute();
    const before = await merchantCoins();
    // Dead after the processor refused, before the ledger gave the coins back: pending, coins out.
    const crashed = await crashingBefore(subject.database.db, 'CardRefundFailed', () =>
      returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Too late' }, 'refused-1'),
    );
    expect(crashed.statusCode).toBe(500);
    expect(await returnsOf(sale.txId)).toMatchObject([{ state: 'pending' }]);
    expect(await merchantCoins()).toBe(before - 1_000);
    // The same request again asks again, is refused again, and gives the coins back once.
    const refused = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Too late' }, 'refused-1');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      response: 'error',
      errors: [{ code: errorCodes.cardRefundRefused, field: 'amount' }],
    });
    expect(await merchantCoins()).toBe(before);
    expect(await returnsOf(sale.txId)).toMatchObject([{ state: 'failed', amount: 1_000 }]);
    // The same request again is the same answer; nothing moves, and the card is never refunded.
    const again = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Too late' }, 'refused-1');
    expect(again.statusCode).toBe(422);
    expect(await merchantCoins()).toBe(before);
    expect(await cardRefunds(sale.txId)).toEqual([]);
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM events WHERE type = 'CardRefundFailed' AND data->>'txId' = ${(await returnsOf(sale.txId))[0]?.tx_id ?? ''}
    `.execute(subject.database.db);
    expect(rows[0]?.count).toBe(1);
  });

  it('has the retry end a stalled return the processor refuses, once, rather than every minute', async () => {
    const sale = await coinSale();
    refundsToFail = 1;
    const cut = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Stalled' }, 'refused-2');
    expect(cut.statusCode).toBe(503);
    const before = await merchantCoins();
    await subject.database.db
      .updateTable('sandbox_charges')
      .set({ refunded_at: new Date() })
      .where('charge_id', '=', sale.chargeId)
      .execute();
    const { app } = subject;
    const log = { info: () => undefined, warn: () => undefined, error: vi.fn() };
    const retry = () =>
      retryStalledCardReturns({
        db: app.db,
        cardCharges: app.cardCharges,
        ledgerSettings: app.ledgerSettings,
        clock: () => new Date(Date.now() + STALLED_AFTER_MS + 1_000),
        log,
      });
    expect(await retry()).toEqual({ finished: 0, failed: 1, flagged: 0, stillPending: 0 });
    expect(await retry()).toEqual({ finished: 0, failed: 0, flagged: 0, stillPending: 0 });
    expect(await merchantCoins()).toBe(before + 1_000);
    expect(await returnsOf(sale.txId)).toMatchObject([{ state: 'failed' }]);
    expect(log.error).toHaveBeenCalledTimes(1);
    // The merchant's own retry now gets the refusal too.
    const asked = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Stalled' }, 'refused-2');
    expect(asked.statusCode).toBe(422);
  });

  it('no longer counts a refused return in the sale: the merchant may return that part again, and the card gets it all', async () => {
    const sale = await coinSale();
    // What the merchant's sales screen reads: its Return button and dialog offer amount − returned_amount.
    const saleRow = async () =>
      merchantTransactionResponse.parse(
        (await merchant.browser.get(`/api/merchant/sale?tx_id=${encodeURIComponent(sale.txId)}`)).json(),
      ).transaction;
    const returnsToday = async () =>
      merchantDashboardResponse
        .parse((await merchant.browser.get('/api/merchant/dashboard')).json())
        .today.find((each) => each.currency === 'CON')?.returns;
    const returnedBefore = await returnsToday();
    refundsToRefuse = 1;
    const refused = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Refused' }, key());
    expect(refused.statusCode, refused.body).toBe(422);
    expect(await returnsOf(sale.txId)).toMatchObject([{ state: 'failed', amount: 1_000 }]);
    // The sales screen offers the whole sale again, and the dashboard counts no return.
    expect(await saleRow()).toMatchObject({ returned_amount: 0, refunded: false, partially_refunded: false });
    expect(await returnsToday()).toBe(returnedBefore);

    // A return left pending (the processor not answering), then one decided against it, then the first refused.
    refundsToFail = 1;
    const stalled = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Stalled' }, key());
    expect(stalled.statusCode).toBe(503);
    const later = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Later' }, key());
    expect(later.statusCode, later.body).toBe(200);
    refundsToRefuse = 1;
    const { app } = subject;
    const log = { info: () => undefined, warn: () => undefined, error: vi.fn() };
    const retried = await retryStalledCardReturns({
      db: app.db,
      cardCharges: app.cardCharges,
      ledgerSettings: app.ledgerSettings,
      clock: () => new Date(Date.now() + STALLED_AFTER_MS + 1_000),
      log,
    });
    expect(retried).toEqual({ finished: 0, failed: 1, flagged: 0, stillPending: 0 });
    expect(await saleRow()).toMatchObject({ returned_amount: 1_000, partially_refunded: true });

    // All that is left, 2,030 of 3,030: the card gets the rest of its charge, 152 in all, and the sale is done.
    const before = await merchantCoins();
    const rest = await returnSale(merchant, { tx_id: sale.txId, amount: 2_030, reason: 'The rest' }, key());
    expect(rest.statusCode, rest.body).toBe(200);
    expect(merchantTransactionResponse.parse(rest.json()).transaction.state).toBe('completed');
    expect(await merchantCoins()).toBe(before - 2_030);
    expect(await saleRow()).toMatchObject({ returned_amount: 3_030, refunded: true });
    expect(total(await cardRefunds(sale.txId))).toBe(152);
    const over = await returnSale(merchant, { tx_id: sale.txId, amount: 1, reason: 'One more' }, key());
    expect(over.statusCode).toBe(422);
    expect((await verifyLedger(subject.database.db)).invariantFailures).toEqual([]);
  });

  it('flags a return the processor never answers for an operator after a day, and stops asking', async () => {
    const sale = await coinSale();
    refundsToFail = 1;
    const cut = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Unanswered' }, 'unanswered-1');
    expect(cut.statusCode).toBe(503);
    const [pending] = await returnsOf(sale.txId);
    // The processor stays down.
    refundsToFail = 1_000;
    const { app } = subject;
    const log = { info: () => undefined, warn: () => undefined, error: vi.fn() };
    const retryAt = (ms: number) =>
      retryStalledCardReturns({
        db: app.db,
        cardCharges: app.cardCharges,
        ledgerSettings: app.ledgerSettings,
        clock: () => new Date(Date.now() + ms),
        log,
      });
    try {
      expect(await retryAt(STALLED_AFTER_MS + 1_000)).toEqual({ finished: 0, failed: 0, flagged: 0, stillPending: 1 });
      expect(await retryAt(GIVE_UP_AFTER_MS + 60_000)).toEqual({ finished: 0, failed: 0, flagged: 1, stillPending: 0 });
      // Flagged once, then never asked for again.
      expect(await retryAt(GIVE_UP_AFTER_MS + 120_000)).toEqual({
        finished: 0,
        failed: 0,
        flagged: 0,
        stillPending: 0,
      });
    } finally {
      refundsToFail = 0;
    }
    const flags = await app.db.selectFrom('card_return_flags').select(['tx_id', 'reason']).execute();
    expect(flags).toEqual([{ tx_id: pending?.tx_id, reason: 'simulated: the process died before the refund' }]);
    expect(log.error).toHaveBeenCalledTimes(1);
    // Nobody knows whether the card got its refund: the return stays pending, the coins stay out.
    expect(await returnsOf(sale.txId)).toMatchObject([{ state: 'pending' }]);
    // The merchant's own retry, once the processor answers, still finishes it.
    const asked = await returnSale(merchant, { tx_id: sale.txId, amount: 1_000, reason: 'Unanswered' }, 'unanswered-1');
    expect(merchantTransactionResponse.parse(asked.json()).transaction.state).toBe('completed');
    expect(await cardRefunds(sale.txId)).toEqual([50]);
  });
});

describe("the merchant's reads", () => {
  let shop: SignedIn;
  beforeAll(async () => {
    shop = await signedUp(subject, 'business');
  });

  it('shows sales, returns, transfers, settlements and the report of the current merchant only', async () => {
    const first = await checkoutSale(subject, shop, { total: 6_00 });
    await checkoutSale(subject, shop, { total: 4_00 });
    expect((await returnSale(shop, { tx_id: first.txId, amount: 3_00, reason: 'Spilled' })).statusCode).toBe(200);

    const dashboard = merchantDashboardResponse.parse((await shop.browser.get('/api/merchant/dashboard')).json());
    expect(dashboard.today).toEqual([{ currency: 'USD', sales: 10_00, returns: 3_00, net: 7_00 }]);
    expect(dashboard.month).toEqual(dashboard.today);
    expect(dashboard.daily).toHaveLength(30);
    expect(dashboard.daily.at(-1)).toMatchObject({ currency: 'USD', sales: 10_00 });
    expect(dashboard.recent_payments.map((each) => each.type)).toEqual(['return', 'sale', 'sale']);
    expect(dashboard.next_settlement.amounts).toEqual([{ currency: 'USD', amount: 7_00 }]);
    expect(Date.parse(dashboard.next_settlement.at)).toBeGreaterThan(Date.now());

    const transfers = merchantTransactionsResponse.parse((await shop.browser.get('/api/merchant/transfers')).json());
    expect(transfers.total).toBe(3);
    expect(transfers.transactions.find((each) => each.tx_id === first.txId)).toMatchObject({
      refunded: false,
      partially_refunded: true,
      refunded_amount: 3_00,
    });
    const returns = merchantTransactionsResponse.parse((await shop.browser.get('/api/merchant/returns')).json());
    expect(returns.transactions).toMatchObject([{ parent_tx_id: first.txId, amount: 3_00 }]);

    // The day's settlement pays out the 7.00 left; its payments are the two sales and the return.
    const owner = merchantOwnerId(shop.merchantId);
    const batchId = `${owner}:USD:today`;
    await executeLedgerCommand(
      subject.database.db,
      {
        type: 'SettleMerchantBatch',
        txId: `settle-${batchId}`,
        merchantId: owner,
        batchId,
        amount: 7_00,
        fee: 0,
        currency: 'USD',
      },
      subject.app.ledgerSettings,
    );
    const settlements = settlementsResponse.parse((await shop.browser.get('/api/merchant/settlements')).json());
    expect(settlements.settlements).toMatchObject([
      { batch_id: batchId, amount: 7_00, payments: 3, sales: 10_00, returns: 3_00 },
    ]);
    const batch = settlementResponse.parse(
      (await shop.browser.get(`/api/merchant/settlement?batch_id=${encodeURIComponent(batchId)}`)).json(),
    );
    expect(batch.payments.map((each) => each.type).sort()).toEqual(['return', 'sale', 'sale']);
    const stranger = await signedUp(subject, 'business');
    expect(
      (await stranger.browser.get(`/api/merchant/settlement?batch_id=${encodeURIComponent(batchId)}`)).statusCode,
    ).toBe(404);
    expect(
      merchantTransactionsResponse.parse((await stranger.browser.get('/api/merchant/transfers')).json()).total,
    ).toBe(0);

    const today = new Date().toISOString().slice(0, 10);
    const report = reportResponse.parse(
      (await shop.browser.get(`/api/merchant/report?from=${today}&to=${today}`)).json(),
    );
    expect(report.totals).toEqual([{ currency: 'USD', sales: 10_00, returns: 3_00, net: 7_00, settled: 7_00 }]);
    expect(report.lines.map((line) => line.type)).toEqual(['sale', 'sale', 'return', 'settlement']);
    // Names, not codes: the buyer given back to, by name; a settlement has no one on the other side.
    const buyer = { kind: 'user', name: first.buyer.user.username, username: first.buyer.user.username };
    expect(report.lines.map((line) => line.counterparty)).toEqual([
      expect.objectContaining({ kind: 'user' }),
      expect.objectContaining({ kind: 'user' }),
      buyer,
      null,
    ]);
    const csv = await shop.browser.get(`/api/merchant/report.csv?from=${today}&to=${today}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('date,type,transaction,sale,currency,amount,fee,state,reason,batch,customer');
    expect(rows.filter((row) => row.includes(',return,'))).toEqual([
      expect.stringContaining(`${first.txId},USD,3.00,0.00,completed,Spilled,,${first.buyer.user.username}`),
    ]);
    expect(rows).toHaveLength(5);
    const backwards = await shop.browser.get(`/api/merchant/report?from=${today}&to=2020-01-01`);
    expect(backwards.statusCode).toBe(400);
  });

  it('leaves read models that equal a rebuild from the log', async () => {
    const report = await verifyLedger(subject.database.db);
    expect(report.differences).toEqual([]);
    expect(report.invariantFailures).toEqual([]);
    expect(report.ok).toBe(true);
  }, 60_000);
});
