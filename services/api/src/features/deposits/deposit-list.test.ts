import {
  bitcoinQuote,
  depositCoinsResponse,
  depositListResponse,
  encodeQrPayload,
  interacDepositResponse,
  qrPayload,
  readQrPayload,
  sendFundForQr,
  zelleDepositResponse,
  type DepositSummary,
  type LiveMessage,
} from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { connectLive } from '../../testing/live.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { signedUpOperator } from '../../testing/operations.ts';
import { fixedBitcoinPrice } from './bitcoin/price.ts';
import { depositStatus } from './deposit-list.ts';

let subject: TestApp;
let base: string;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    live: { sweepMs: 1_000 },
    deposits: {
      recipients: { interac: 'etransfer@deposits.example', zelle: 'zelle@deposits.example' },
      bitcoin: { network: 'testnet', price: fixedBitcoinPrice(5_000_000) },
    },
  });
  base = `127.0.0.1:${String((subject.app.server.address() as { port: number }).port)}`;
});
afterAll(() => subject.close());

const person = () => signedUp(subject, 'personal');
const post = async (who: SignedIn, url: string, body: unknown) => {
  const response = await who.browser.request('POST', url, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<unknown>();
};
const listOf = async (who: SignedIn) => {
  const response = await who.browser.request('GET', '/api/account/deposits');
  expect(response.statusCode, response.body).toBe(200);
  return depositListResponse.parse(response.json()).deposits;
};
const interac = async (who: SignedIn, amount: number) =>
  interacDepositResponse.parse(await post(who, '/api/account/deposit-interac', { amount })).deposit;
const bitcoin = async (who: SignedIn, amount: number) => {
  const quote = bitcoinQuote.parse(await post(who, '/api/account/get-bitcoin-info', { amount }));
  return depositCoinsResponse.parse(
    await post(who, '/api/account/deposit-coins', { ...quote, paymentMethodId: 'CRYPTO:BTC' }),
  );
};
const depositNews =
  (txId: string, status: DepositSummary['status']) =>
  (message: LiveMessage): boolean =>
    message.type === 'deposit' && message.deposit.tx_id === txId && message.deposit.status === status;

/** What the bitcoin watcher writes to a deposit's row after a look at its address. */
const watched = (txId: string, row: { watch_state: 'processing'; received_sats: number; confirmations: number }) =>
  subject.database.db
    .updateTable('bitcoin_deposits')
    .set({ ...row, seen_at: new Date() })
    .where('tx_id', '=', txId)
    .execute();

describe('GET /api/account/deposits', () => {
  it("lists the wallet's e-mail-transfer and bitcoin deposits, newest first, waiting for their money", async () => {
    const ann = await person();
    const first = await interac(ann, 50);
    const second = zelleDepositResponse.parse(await post(ann, '/api/account/deposit-zell', { amount: 20 })).deposit;
    const third = await bitcoin(ann, 25);

    const deposits = await listOf(ann);
    expect(deposits.map((deposit) => [deposit.tx_id, deposit.method, deposit.status])).toEqual([
      [third.futurePaymentId, 'bitcoin', 'waiting'],
      [second.tx_id, 'zelle', 'waiting'],
      [first.tx_id, 'interac', 'waiting'],
    ]);
    expect(deposits[2]).toMatchObject({
      amount: 50_00,
      currency: 'CAD',
      coins: first.coin_estimate,
      reference: first.reference,
      bitcoin: null,
      expires_at: null,
    });
    expect(deposits[0]).toMatchObject({
      amount: 25_00,
      currency: 'USD',
      reference: third.recipientIdentifier,
      expires_at: third.expiresAt,
      bitcoin: {
        address: third.recipientIdentifier,
        amount_sats: third.expectedAmount,
        received_sats: 0,
        confirmations: null,
        flag: null,
      },
    });
  });

  it("shows nobody else's deposits", async () => {
    const [ann, bob] = [await person(), await person()];
    await interac(ann, 10);
    expect(await listOf(bob)).toEqual([]);
  });
});

describe('deposit news on GET /api/live', () => {
  it('tells the depositor an Interac deposit entered, then cleared by an operator, with the coins in the balance', async () => {
    const [ann, operator] = [await person(), await signedUpOperator(subject)];
    const live = await connectLive(base, ann);
    try {
      const deposit = await interac(ann, 40);
      await live.next(depositNews(deposit.tx_id, 'waiting'));
      await post(operator, '/api/operations/clear-deposit', {
        tx_id: deposit.tx_id,
        amount_received: 40_00,
        currency: 'CAD',
        reference: deposit.reference,
      });
      const cleared = await live.next(depositNews(deposit.tx_id, 'cleared'));
      expect(cleared).toMatchObject({ deposit: { coins: deposit.coin_estimate } });
      const balance = await live.next((message) => message.type === 'balance');
      expect(balance.type === 'balance' && balance.balance.available_balance).toBe(deposit.coin_estimate);
    } finally {
      live.socket.close();
    }
  });

  it('tells of a bitcoin payment seen, each confirmation, and the deposit cleared, each within moments', async () => {
    const ann = await person();
    const live = await connectLive(base, ann);
    try {
      const deposit = await bitcoin(ann, 30);
      const txId = deposit.futurePaymentId;
      await live.next(depositNews(txId, 'waiting'));
      const sats = deposit.expectedAmount;
      await watched(txId, { watch_state: 'processing', received_sats: sats, confirmations: 0 });
      await live.next(depositNews(txId, 'seen'));
      await watched(txId, { watch_state: 'processing', received_sats: sats, confirmations: 1 });
      const confirming = await live.next(depositNews(txId, 'confirming'));
      expect(confirming).toMatchObject({ deposit: { bitcoin: { confirmations: 1, received_sats: sats } } });

      await subject.database.db.transaction().execute(async (trx) => {
        await executeLedgerCommand(
          trx,
          { type: 'ClearDeposit', txId, clearedBy: 'worker:bitcoin-watcher' },
          subject.app.ledgerSettings,
        );
        await trx
          .updateTable('bitcoin_deposits')
          .set({ watch_state: 'cleared', confirmed_sats: sats, confirmations: 2 })
          .where('tx_id', '=', txId)
          .execute();
      });
      await live.next(depositNews(txId, 'cleared'));
    } finally {
      live.socket.close();
    }
  });

  it("tells nobody else of a deposit, and nothing of a watcher's write that changes nothing shown", async () => {
    const [ann, bob] = [await person(), await person()];
    const bobLive = await connectLive(base, bob);
    const annLive = await connectLive(base, ann);
    try {
      const deposit = await bitcoin(ann, 12);
      await annLive.next(depositNews(deposit.futurePaymentId, 'waiting'));
      await subject.database.db
        .updateTable('bitcoin_deposits')
        .set({ payment_txids: [] })
        .where('tx_id', '=', deposit.futurePaymentId)
        .execute();
      // A later commit of Ann's own: if the write above had been announced, its news would come first.
      await fund(subject, userOwnerId(ann.user.user_id), 1_00);
      await annLive.next((message) => message.type === 'activity');
      expect(annLive.messages.filter((message) => message.type === 'deposit')).toHaveLength(1);
      expect(bobLive.messages.some((message) => message.type === 'deposit')).toBe(false);
    } finally {
      annLive.socket.close();
      bobLive.socket.close();
    }
  });
});

describe('a merchant taking a QR payment at the counter', () => {
  it("sees the sale on its live socket, with the QR's amount and comment, without asking", async () => {
    const [shop, buyer] = [await signedUp(subject, 'business'), await person()];
    await fund(subject, userOwnerId(buyer.user.user_id), 100_00, 'USD');
    const live = await connectLive(base, shop);
    try {
      const shown = encodeQrPayload(
        qrPayload.parse({ amt: '12.5', gid: shop.user.guser_id, uid: shop.user.user_id, comment: 'Table 7' }),
      );
      const scanned = readQrPayload(shown);
      if (!scanned) throw new Error('the QR text does not read back');
      await post(buyer, '/api/account/send-fund', sendFundForQr(scanned));
      const sale = await live.next((message) => message.type === 'activity');
      expect(sale).toMatchObject({
        transaction: { amount: 12_50, currency: 'USD', reference: 'Table 7', debit_credit: 'C' },
      });
      const balance = await live.next((message) => message.type === 'balance');
      expect(
        balance.type === 'balance' && balance.balance.balances.find((row) => row.currency === 'USD'),
      ).toMatchObject({ balance: 12_50 });
    } finally {
      live.socket.close();
    }
  });
});

describe('depositStatus', () => {
  it.each([
    ['pending', null, 'waiting'],
    ['completed', null, 'cleared'],
    ['rejected', null, 'rejected'],
    ['expired', null, 'expired'],
    ['pending', { state: 'pending', confirmations: null }, 'waiting'],
    ['pending', { state: 'processing', confirmations: 0 }, 'seen'],
    ['pending', { state: 'processing', confirmations: 3 }, 'confirming'],
    ['completed', { state: 'cleared', confirmations: 6 }, 'cleared'],
    ['expired', { state: 'expired', confirmations: null }, 'expired'],
    ['pending', { state: 'flagged', confirmations: 2 }, 'flagged'],
    ['completed', { state: 'flagged', confirmations: 2 }, 'flagged'],
  ] as const)('reads ledger %s and watcher %j as %s', (ledger, watch, status) => {
    expect(depositStatus(ledger, watch)).toBe(status);
  });
});
