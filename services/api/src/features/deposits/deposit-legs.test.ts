import {
  bitcoinQuote,
  depositCoinsResponse,
  interacDepositResponse,
  operationResponse,
  transactionDetailsResponse,
  transactionListResponse,
  zelleDepositResponse,
} from '@peeks/contracts';
import { tamper } from '@peeks/db/testing';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { executeLedgerCommand, verifyLedger, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { signedUpOperator } from '../../testing/operations.ts';
import { fixedBitcoinPrice } from './bitcoin/price.ts';

/**
 * Deposits that clear later convert their cash to coins through the
 * platform's exchange accounts, as a purchase does: each currency's
 * postings balance on their own, and the history names the network, the
 * cash and the quote.
 */

const now = new Date('2030-06-01T10:00:00Z');
let subject: TestApp;
let operator: SignedIn;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    clock: () => now,
    deposits: {
      recipients: { interac: 'i@deposits.example', zelle: 'z@deposits.example' },
      bitcoin: { network: 'testnet', price: fixedBitcoinPrice(5_000_000) },
    },
  });
  operator = await signedUpOperator(subject);
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);
const keyed = (key: string) => ({ 'idempotency-key': key });

/** The postings of a transaction, signed (credits positive), by account. */
async function postingsOf(txId: string) {
  const rows = await subject.database.db
    .selectFrom('ledger_entries')
    .select(['account_id', 'currency', 'amount', 'debit_credit'])
    .where('tx_id', '=', txId)
    .orderBy('ledger_id')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.account_id, (row.debit_credit === 'C' ? 1 : -1) * row.amount]));
}

async function historyOf(who: SignedIn) {
  const response = await who.browser.post('/api/account/transactions', { limit: 100 });
  expect(response.statusCode, response.body).toBe(200);
  return transactionListResponse.parse(response.json()).transactions;
}

async function coinBalance(who: SignedIn) {
  const wallets = await walletsOf(subject.database.db, owner(who));
  return wallets.find((wallet) => wallet.walletId === walletIdOf(owner(who), 'CON'))?.total ?? 0;
}

describe('a deposit cleared through the exchange accounts', () => {
  it('posts an Interac deposit as Canadian dollars in and coins out, once however often the clear is retried', async () => {
    const ann = await signedUp(subject, 'personal');
    const made = await ann.browser.request('POST', '/api/account/deposit-interac', { amount: 100 }, keyed('i-1'));
    expect(made.statusCode, made.body).toBe(200);
    const answer = interacDepositResponse.parse(made.json());
    const txId = answer.transaction.tx_id;
    // Entered: nothing posted, but the row already names the network, the cash and the quote.
    expect(await postingsOf(txId)).toEqual({});
    expect(answer.transaction).toMatchObject({
      wallet_change: 0,
      funding: { amount: 100_00, currency: 'CAD', label: 'Interac e-Transfer' },
      quote: { quote_id: answer.quote.quote_id, from_currency: 'CAD', amount_in: 100_00, amount_out: 1_560_00 },
    });

    const received = {
      tx_id: txId,
      amount_received: 100_00,
      currency: 'CAD',
      reference: answer.deposit.reference,
    };
    const clears = await Promise.all(
      [1, 2, 3].map(() => operator.browser.request('POST', '/api/operations/clear-deposit', received, keyed('c-1'))),
    );
    for (const clear of clears) expect(clear.statusCode, clear.body).toBe(200);
    expect(new Set(clears.map((clear) => JSON.stringify(operationResponse.parse(clear.json()))))).toHaveProperty(
      'size',
      1,
    );

    // 100 CAD at 15.6 coins a Canadian dollar: 1,560 coins, each currency summing to zero.
    expect(await postingsOf(txId)).toEqual({
      'platform:email-transfer-funding:CAD': -100_00,
      'platform:exchange:CAD': 100_00,
      'platform:exchange:CON': -1_560_00,
      [walletIdOf(owner(ann), 'CON')]: 1_560_00,
    });
    expect(await coinBalance(ann)).toBe(1_560_00);
    const [row] = await historyOf(ann);
    expect(row).toMatchObject({
      tx_id: txId,
      state: 'completed',
      wallet_change: 1_560_00,
      funding: { amount: 100_00, currency: 'CAD', label: 'Interac e-Transfer' },
      quote: { quote_id: answer.quote.quote_id, rate: 15.6 },
    });

    // ledger:verify holds a clearing to the cash its deposit was entered with.
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });
    const rewritePayment = (amount: number) =>
      tamper(
        subject.database.db,
        sql`UPDATE events SET data = jsonb_set(data, '{payment,amount}', ${String(amount)}::jsonb)
            WHERE stream_id = ${`ledger-${txId}`} AND type = 'DepositCleared'`,
      );
    await rewritePayment(99_00);
    const report = await verifyLedger(subject.database.db);
    expect(report.ok).toBe(false);
    expect(report.invariantFailures).toEqual([
      expect.stringMatching(new RegExp(`^a cleared deposit converts the cash it was entered with.*: ${txId}: `)),
    ]);
    await rewritePayment(100_00);
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });
  });

  it('posts nothing for a rejected Zelle deposit, whose row still names what was expected', async () => {
    const bob = await signedUp(subject, 'personal');
    const made = await bob.browser.post('/api/account/deposit-zell', { amount: 7 });
    expect(made.statusCode, made.body).toBe(200);
    const answer = zelleDepositResponse.parse(made.json());
    const rejected = await operator.browser.post('/api/operations/reject-deposit', {
      tx_id: answer.transaction.tx_id,
      reason: 'No transfer with this memo arrived',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await postingsOf(answer.transaction.tx_id)).toEqual({});
    const [row] = await historyOf(bob);
    expect(row).toMatchObject({
      state: 'rejected',
      wallet_change: 0,
      funding: { amount: 7_00, currency: 'USD', label: 'Zelle' },
    });
    expect(await coinBalance(bob)).toBe(0);
  });

  it("posts a bitcoin deposit's dollars in and coins out when it clears, and nothing when one expires", async () => {
    const cy = await signedUp(subject, 'personal');
    const deposit = async (amount: number) => {
      const info = await cy.browser.post('/api/account/get-bitcoin-info', { amount });
      expect(info.statusCode, info.body).toBe(200);
      const made = await cy.browser.post('/api/account/deposit-coins', {
        ...bitcoinQuote.parse(info.json()),
        paymentMethodId: 'CRYPTO:BTC',
      });
      expect(made.statusCode, made.body).toBe(200);
      return depositCoinsResponse.parse(made.json());
    };
    const paid = await deposit(250);
    const unpaid = await deposit(40);
    // The watcher clears the paid one; the expiry job expires the other a day on.
    await executeLedgerCommand(
      subject.database.db,
      { type: 'ClearDeposit', txId: paid.transaction.tx_id, clearedBy: 'worker:bitcoin-watcher' },
      subject.app.ledgerSettings,
    );
    const dayOn = new Date(now.getTime() + 25 * 60 * 60_000);
    await executeLedgerCommand(
      subject.database.db,
      { type: 'ExpireDeposit', txId: unpaid.transaction.tx_id },
      { ...subject.app.ledgerSettings, now: () => dayOn },
    );

    expect(await postingsOf(paid.transaction.tx_id)).toEqual({
      'platform:bitcoin-funding:USD': -250_00,
      'platform:exchange:USD': 250_00,
      'platform:exchange:CON': -5_000_00,
      [walletIdOf(owner(cy), 'CON')]: 5_000_00,
    });
    expect(await postingsOf(unpaid.transaction.tx_id)).toEqual({});
    const rows = await historyOf(cy);
    // Both were entered at the test clock's one instant: in either order.
    expect(rows.map((row) => [row.state, row.wallet_change, row.funding?.label, row.funding?.amount]).sort()).toEqual([
      ['completed', 5_000_00, 'Bitcoin', 250_00],
      ['expired', 0, 'Bitcoin', 40_00],
    ]);
    expect(rows.reduce((sum, row) => sum + row.wallet_change, 0)).toBe(await coinBalance(cy));
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });
  });
});

describe("a deposit's answer", () => {
  it('is the row the history reads back, for Interac, Zelle and bitcoin', async () => {
    const dee = await signedUp(subject, 'personal');
    const made = async (path: string, body: Record<string, unknown>): Promise<unknown> => {
      const response = await dee.browser.post(path, body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
      return response.json();
    };
    const info = bitcoinQuote.parse(await made('/api/account/get-bitcoin-info', { amount: 120 }));
    const answers = [
      interacDepositResponse.parse(await made('/api/account/deposit-interac', { amount: 30 })).transaction,
      zelleDepositResponse.parse(await made('/api/account/deposit-zell', { amount: 12 })).transaction,
      depositCoinsResponse.parse(await made('/api/account/deposit-coins', { ...info, paymentMethodId: 'CRYPTO:BTC' }))
        .transaction,
    ];
    for (const answer of answers) {
      const read = await dee.browser.post('/api/account/transaction-details', { id: answer.tx_id });
      expect(read.statusCode, read.body).toBe(200);
      expect(answer, answer.payment_method_type ?? '').toEqual({
        ...transactionDetailsResponse.parse(read.json()).transaction,
        cart: answer.cart,
      });
    }
  });
});
