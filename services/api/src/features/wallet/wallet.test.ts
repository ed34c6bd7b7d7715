import {
  auditListResponse,
  balanceResponse,
  coinListResponse,
  errorCodes,
  forexResponse,
  ledgerDetailsResponse,
  ledgerListResponse,
  transactionDetailsResponse,
  transactionListResponse,
} from '@peeks/contracts';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand, loadTransaction } from '@peeks/ledger-store';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { transfer } from '../../testing/wallet.ts';
import { transactionRecordOf } from '../payments/index.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);
const person = () => signedUp(subject, 'personal');

async function balanceOf(who: SignedIn) {
  const response = await who.browser.get('/api/account/balance');
  expect(response.statusCode, response.body).toBe(200);
  return balanceResponse.parse(response.json()).balance;
}
async function transactionsOf(who: SignedIn, page?: object) {
  const response = await who.browser.post('/api/account/transactions', page);
  expect(response.statusCode, response.body).toBe(200);
  return transactionListResponse.parse(response.json());
}
async function ledgerOf(who: SignedIn, page?: object) {
  const response = await who.browser.post('/api/account/ledger', page);
  expect(response.statusCode, response.body).toBe(200);
  return ledgerListResponse.parse(response.json());
}

describe('GET /api/account/balance', () => {
  it('lists every wallet at zero for a new user, the coin wallet combined and on top', async () => {
    const balance = await balanceOf(await person());
    expect(balance).toMatchObject({ currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0 });
    expect(balance.balances.map((line) => [line.currency, line.combined]).sort()).toEqual([
      ['CAD', false],
      ['CON', true],
      ['IMP', false],
      ['USD', false],
    ]);
  });

  it('shows money received from others as held: available but not withdrawable', async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 10_000);
    await fund(subject, owner(ann), 1_234, 'USD');
    await transfer(subject, owner(ann), owner(bob), 250);

    const annBalance = await balanceOf(ann);
    expect(annBalance).toMatchObject({
      currency: 'CON',
      balance: 9_750,
      available_balance: 9_750,
      withdrawable_balance: 9_750,
    });
    expect(annBalance.balances.find((line) => line.currency === 'USD')).toEqual({
      currency: 'USD',
      balance: 1_234,
      available_balance: 1_234,
      withdrawable_balance: 1_234,
      combined: false,
    });
    const bobBalance = await balanceOf(bob);
    expect(bobBalance).toMatchObject({ balance: 250, available_balance: 250, withdrawable_balance: 0 });
    expect(annBalance.next_hold_release_at).toBeNull();
  });

  it('says when the soonest open hold releases, and nothing once every hold has', async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 10_000);
    const first = await transfer(subject, owner(ann), owner(bob), 100);
    const second = await transfer(subject, owner(ann), owner(bob), 200);
    const releaseOf = async (txId: string) => (await loadTransaction(subject.database.db, txId))?.holdReleaseAt;
    // The hold time has passed.
    const later = { ...subject.app.ledgerSettings, now: () => new Date(Date.now() + 72 * 3_600_000) };
    const release = (txId: string) => executeLedgerCommand(subject.database.db, { type: 'ReleaseHold', txId }, later);
    expect((await balanceOf(bob)).next_hold_release_at).toBe(await releaseOf(first));
    await release(first);
    expect((await balanceOf(bob)).next_hold_release_at).toBe(await releaseOf(second));
    await release(second);
    expect((await balanceOf(bob)).next_hold_release_at).toBeNull();
  });

  it("shows a business user acting for a merchant the merchant's wallets, not their own", async () => {
    const shop = await signedUp(subject, 'business');
    await fund(subject, merchantOwnerId(shop.merchantId), 700);
    await fund(subject, owner(shop), 99);
    expect((await balanceOf(shop)).balance).toBe(700);
  });
});

describe('POST /api/account/transactions and transaction-details', () => {
  let ann: SignedIn;
  let bob: SignedIn;
  let sent: string[];
  beforeAll(async () => {
    [ann, bob] = [await person(), await person()];
    const carol = await person();
    await fund(subject, owner(ann), 100_000);
    sent = [];
    for (let each = 1; each <= 16; each += 1) sent.push(await transfer(subject, owner(ann), owner(bob), each * 10));
    // Someone else's money: never in Ann's lists.
    await fund(subject, owner(carol), 500);
    await transfer(subject, owner(carol), owner(bob), 5);
  });

  it('pages 15 at a time, newest first, with the total', async () => {
    const first = await transactionsOf(ann);
    expect(first.total).toBe(17);
    expect(first.transactions).toHaveLength(15);
    expect(first.transactions[0]).toMatchObject({
      tx_id: sent.at(-1),
      debit_credit: 'D',
      amount: 160,
      currency: 'CON',
      type: 'transfer',
      state: 'completed',
    });
    const second = await transactionsOf(ann, { offset: 15 });
    expect(second.total).toBe(17);
    expect(second.transactions.map((each) => each.type)).toEqual(['transfer', 'correction']);
    const ids = [...first.transactions, ...second.transactions].map((each) => each.tx_id);
    expect(new Set(ids).size).toBe(17);
    expect(ids.slice(0, 16)).toEqual([...sent].reverse());
    expect((await transactionsOf(ann, { offset: 3, limit: 2 })).transactions.map((each) => each.tx_id)).toEqual([
      sent[12],
      sent[11],
    ]);
  });

  it('lists only transactions the caller paid or was paid by, each from their side', async () => {
    const bobs = await transactionsOf(bob, { limit: 100 });
    expect(bobs.total).toBe(17);
    expect(bobs.transactions.every((each) => each.debit_credit === 'C')).toBe(true);
    expect(bobs.transactions.filter((each) => sent.includes(each.tx_id))).toHaveLength(16);
  });

  it('refuses a page past the cap or a negative offset', async () => {
    expectRefusal(
      await ann.browser.post('/api/account/transactions', { limit: 101 }),
      400,
      errorCodes.invalidArguments,
      'limit 101',
    );
    expectRefusal(await ann.browser.post('/api/account/transactions', { offset: -1 }), 400, undefined, 'offset -1');
    expectRefusal(await ann.browser.post('/api/account/transactions', { limit: 0 }), 400, undefined, 'limit 0');
  });

  it('answers one transaction to either party, and 404 to anyone else or for an unknown id', async () => {
    const txId = sent[0] ?? '';
    const asPayer = await ann.browser.post('/api/account/transaction-details', { id: txId });
    expect(asPayer.statusCode, asPayer.body).toBe(200);
    const { transaction } = transactionDetailsResponse.parse(asPayer.json());
    expect(transaction).toEqual(
      (await transactionsOf(ann, { limit: 100 })).transactions.find((each) => each.tx_id === txId),
    );
    expect(transaction).toMatchObject({ debit_credit: 'D', amount: 10, user_id: ann.user.user_id });
    const asPayee = transactionDetailsResponse.parse(
      (await bob.browser.post('/api/account/transaction-details', { id: txId })).json(),
    );
    expect(asPayee.transaction).toMatchObject({ debit_credit: 'C', user_id: bob.user.user_id });

    const stranger = await person();
    const refused = await stranger.browser.post('/api/account/transaction-details', { id: txId });
    expectRefusal(refused, 404, errorCodes.transactionNotFound, 'a stranger');
    expect(refused.json()).toMatchObject({ message: 'No such a transaction' });
    expectRefusal(
      await ann.browser.post('/api/account/transaction-details', { id: 'tx_nothing_here' }),
      404,
      errorCodes.transactionNotFound,
      'unknown id',
    );
  });

  it('reads a row back as exactly the record its stream folds to', async () => {
    const ids = (await transactionsOf(bob, { limit: 100 })).transactions.map((each) => each.tx_id);
    const rows = await subject.database.db
      .selectFrom('ledger_transactions')
      .selectAll()
      .where('tx_id', 'in', [...ids, ...sent])
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(transactionRecordOf(row)).toEqual(await loadTransaction(subject.database.db, row.tx_id));
  });
});

describe('POST /api/account/ledger and ledger-details', () => {
  it("lists the postings to the caller's wallets, newest first, paged with the total", async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 5_000);
    const txIds: string[] = [];
    for (let each = 1; each <= 15; each += 1) txIds.push(await transfer(subject, owner(ann), owner(bob), each));

    const first = await ledgerOf(ann);
    expect(first.total).toBe(16);
    expect(first.ledgers).toHaveLength(15);
    expect(first.ledgers[0]).toMatchObject({ tx_id: txIds.at(-1), amount: 15, currency: 'CON', debit_credit: 'D' });
    expect(first.ledgers[0]?.entry_date).toMatch(/^\d{4}-\d\d-\d\dT/);
    const rest = await ledgerOf(ann, { offset: 15, limit: 15 });
    expect(rest.ledgers).toEqual([expect.objectContaining({ amount: 5_000, debit_credit: 'C' })]);
    expect((await ledgerOf(bob)).ledgers.every((entry) => entry.debit_credit === 'C')).toBe(true);
  });

  it('answers one posting to its owner, 404 to anyone else and for an unknown id', async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 5_000);
    await transfer(subject, owner(ann), owner(bob), 40);
    const [latest] = (await ledgerOf(ann)).ledgers;
    if (!latest) throw new Error('no ledger entry');

    const own = await ann.browser.post('/api/account/ledger-details', { id: latest.ledger_id });
    expect(own.statusCode, own.body).toBe(200);
    expect(ledgerDetailsResponse.parse(own.json()).ledger).toEqual(latest);
    // Bob's side of the same transaction is another posting, with another id.
    expectRefusal(
      await bob.browser.post('/api/account/ledger-details', { id: latest.ledger_id }),
      404,
      errorCodes.ledgerEntryNotFound,
      'the payee',
    );
    expectRefusal(
      await ann.browser.post('/api/account/ledger-details', { id: '999999.0' }),
      404,
      errorCodes.ledgerEntryNotFound,
      'unknown id',
    );
    expectRefusal(await ann.browser.post('/api/account/ledger-details', { id: '' }), 400, undefined, 'empty id');
  });
});

describe('the history filters: type, currency, date range and search', () => {
  let ann: SignedIn;
  let bob: SignedIn;
  let rent: string;
  let lastYear: string;
  beforeAll(async () => {
    [ann, bob] = [await person(), await person()];
    const carol = await person();
    await fund(subject, owner(ann), 10_000);
    await fund(subject, owner(ann), 2_500, 'USD');
    rent = `transfer-${randomUUID()}`;
    await executeLedgerCommand(
      subject.database.db,
      {
        type: 'Transfer',
        txId: rent,
        kind: 'P2P',
        fromOwnerId: owner(ann),
        toOwnerId: owner(bob),
        amount: 300,
        fee: 0,
        currency: 'CON',
        memo: 'March Rent',
      },
      subject.app.ledgerSettings,
    );
    lastYear = await transfer(subject, owner(ann), owner(bob), 20);
    // Dated a year back, in both read models, so a date range has something to leave out.
    const then = new Date(Date.now() - 365 * 86_400_000);
    await subject.database.db
      .updateTable('ledger_transactions')
      .set({ entry_date: then })
      .where('tx_id', '=', lastYear)
      .execute();
    await subject.database.db
      .updateTable('ledger_entries')
      .set({ entry_date: then })
      .where('tx_id', '=', lastYear)
      .execute();
    // Carol's money matches every filter below but is never Ann's.
    await fund(subject, owner(carol), 10_000);
    await transfer(subject, owner(carol), owner(bob), 7);
  });
  const today = () => new Date().toISOString().slice(0, 10);

  it('filters transactions by type and currency, the total counting only what matches', async () => {
    const transfers = await transactionsOf(ann, { type: 'transfer' });
    expect(transfers.total).toBe(2);
    expect(transfers.transactions.map((each) => each.tx_id).sort()).toEqual([rent, lastYear].sort());
    const dollars = await transactionsOf(ann, { currency: 'USD' });
    expect(dollars.transactions).toEqual([expect.objectContaining({ type: 'correction', amount: 2_500 })]);
    expect((await transactionsOf(ann, { type: 'transfer', currency: 'USD' })).total).toBe(0);
    // Empty strings are the form's "all": the same as no filter.
    expect((await transactionsOf(ann, { type: '', currency: '', from: '', to: '', search: '' })).total).toBe(4);
  });

  it('filters by UTC days, both ends included', async () => {
    const recent = await transactionsOf(ann, { from: today(), to: today() });
    expect(recent.total).toBe(3);
    expect(recent.transactions.map((each) => each.tx_id)).not.toContain(lastYear);
    const old = await transactionsOf(ann, { to: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) });
    expect(old.transactions.map((each) => each.tx_id)).toEqual([lastYear]);
    const ledger = await ledgerOf(ann, { from: today() });
    expect(ledger.ledgers.map((entry) => entry.tx_id)).not.toContain(lastYear);
    expect(ledger.total).toBe(3);
  });

  it('finds a transaction by the start of its id or words of its reference, any case', async () => {
    expect((await transactionsOf(ann, { search: 'march rent' })).transactions.map((each) => each.tx_id)).toEqual([
      rent,
    ]);
    expect((await transactionsOf(ann, { search: rent.slice(0, 20) })).transactions.map((each) => each.tx_id)).toEqual([
      rent,
    ]);
    expect((await transactionsOf(ann, { search: 'transfer-' })).total).toBe(2);
    expect((await transactionsOf(ann, { search: '%' })).total).toBe(0);
    expect((await ledgerOf(ann, { search: rent })).ledgers).toEqual([
      expect.objectContaining({ tx_id: rent, type: 'P2P_SENT', debit_credit: 'D' }),
    ]);
  });

  it('filters ledger entries by code and currency', async () => {
    const sentEntries = await ledgerOf(ann, { type: 'P2P_SENT' });
    expect(sentEntries.total).toBe(2);
    expect(sentEntries.ledgers.every((entry) => entry.type === 'P2P_SENT')).toBe(true);
    expect((await ledgerOf(ann, { currency: 'USD' })).ledgers).toEqual([
      expect.objectContaining({ amount: 2_500, currency: 'USD' }),
    ]);
    expect((await ledgerOf(bob, { type: 'P2P_RCVD' })).total).toBe(3);
    expect((await ledgerOf(ann, { type: 'NOT_A_CODE_YET' })).total).toBe(0);
  });

  it("never shows another owner's records, whatever the filter", async () => {
    const stranger = await person();
    expect((await transactionsOf(stranger, { search: 'transfer-' })).total).toBe(0);
    expect((await transactionsOf(stranger, { search: 'march rent' })).total).toBe(0);
    expect((await ledgerOf(stranger, { type: 'P2P_SENT' })).total).toBe(0);
    expect(
      (await transactionsOf(ann, { search: 'transfer-' })).transactions.every((each) => each.debit_credit === 'D'),
    ).toBe(true);
  });

  it("refuses a bad filter with 400 and the field's words", async () => {
    const cases: [string, object, string][] = [
      ['/api/account/transactions', { type: 'gift' }, 'Please select type'],
      ['/api/account/ledger', { type: 'p2p sent' }, 'Please select type'],
      ['/api/account/transactions', { currency: 'EUR' }, 'Please select currency'],
      ['/api/account/transactions', { from: '2026-02-30' }, 'Please enter valid from date'],
      ['/api/account/ledger', { to: '25-11-2026' }, 'Please enter valid to date'],
      [
        '/api/account/transactions',
        { from: '2026-05-02', to: '2026-05-01' },
        'The to date must not be before the from date',
      ],
      ['/api/account/transactions', { search: 'x'.repeat(101) }, 'Please enter at most 100 characters search'],
    ];
    for (const [path, body, words] of cases) {
      const refused = await ann.browser.post(path, body);
      expectRefusal(refused, 400, undefined, JSON.stringify(body));
      expect(refused.body, JSON.stringify(body)).toContain(words);
    }
  });
});

describe('GET /api/wallet/list-coins', () => {
  it('pages the caller’s coins 50 at a time, summing to the coin balance', async () => {
    const [ann, bob] = [await person(), await person()];
    for (let each = 1; each <= 54; each += 1) await fund(subject, owner(ann), 100);
    await transfer(subject, owner(ann), owner(bob), 150);

    const first = coinListResponse.parse((await ann.browser.get('/api/wallet/list-coins')).json());
    expect(first.total).toBe(53);
    expect(first.coins).toHaveLength(50);
    const rest = coinListResponse.parse((await ann.browser.get('/api/wallet/list-coins?offset=50&limit=50')).json());
    expect(rest.coins).toHaveLength(3);
    const all = [...first.coins, ...rest.coins];
    expect(new Set(all.map((coin) => coin.serial)).size).toBe(53);
    expect(all.every((coin) => coin.currency === 'CON')).toBe(true);
    expect(all.reduce((sum, coin) => sum + coin.value, 0)).toBe((await balanceOf(ann)).balance);

    const bobs = coinListResponse.parse((await bob.browser.get('/api/wallet/list-coins')).json());
    expect(
      bobs.coins.map((coin) => coin.value),
      'largest first',
    ).toEqual([100, 50]);
    expectRefusal(
      await ann.browser.get('/api/wallet/list-coins?limit=51'),
      400,
      errorCodes.invalidArguments,
      'limit 51',
    );
  });
});

describe('GET /api/wallet/list-audit', () => {
  it("lists the coin audit of the caller's transaction, and 404 for anyone else's", async () => {
    const [ann, bob, stranger] = [await person(), await person(), await person()];
    await fund(subject, owner(ann), 1_000);
    const txId = await transfer(subject, owner(ann), owner(bob), 300);

    const response = await ann.browser.get(`/api/wallet/list-audit?reference_no=${txId}`);
    expect(response.statusCode, response.body).toBe(200);
    const { ledgers } = auditListResponse.parse(response.json());
    const annWallet = `wallet:${owner(ann)}:CON`;
    expect(ledgers.map((entry) => entry.action)).toEqual(['SPLIT', 'SPLIT_INTO', 'SPLIT_INTO', 'MOVE']);
    const move = ledgers.at(-1)?.from_serial?.split(':');
    expect(move?.slice(1)).toEqual([...annWallet.split(':'), 'CON', '300']);
    // Bob sees the same steps, but of Ann's coins only that they were another wallet's (audit-privacy.test.ts).
    const bobs = auditListResponse.parse(
      (await bob.browser.get(`/api/wallet/list-audit?reference_no=${txId}`)).json(),
    ).ledgers;
    expect(bobs.map((entry) => entry.action)).toEqual(ledgers.map((entry) => entry.action));
    expect(bobs.map((entry) => entry.from_serial)).toEqual([null, null, null, `${move?.[0] ?? ''}::CON:300`]);
    expectRefusal(
      await stranger.browser.get(`/api/wallet/list-audit?reference_no=${txId}`),
      404,
      errorCodes.transactionNotFound,
      'a stranger',
    );
    expectRefusal(
      await ann.browser.get('/api/wallet/list-audit?reference_no=nope'),
      404,
      errorCodes.transactionNotFound,
      'unknown',
    );
    expectRefusal(await ann.browser.get('/api/wallet/list-audit'), 400, undefined, 'no reference');
  });
});

describe('POST /api/account/forex-lookup', () => {
  it('answers each currency its own coin rate, CAD below USD, and 400 for any other currency', async () => {
    const ann = await person();
    // Coins are priced in US dollars, 20 a dollar; a Canadian dollar at the default 0.78 buys 15.6.
    for (const [currency, rate, perUnit] of [
      ['USD', 1_000_000, 20_000_000],
      ['CAD', 780_000, 15_600_000],
    ] as const) {
      const response = await ann.browser.post('/api/account/forex-lookup', { currency });
      expect(response.statusCode, response.body).toBe(200);
      expect(forexResponse.parse(response.json()).forex).toEqual({
        currency,
        target: 'CON',
        rate_micros: rate,
        coins_per_unit: 20,
        coin_micros_per_unit: perUnit,
      });
    }
    for (const currency of ['EUR', 'CON', 'usd']) {
      const refused = await ann.browser.post('/api/account/forex-lookup', { currency });
      expectRefusal(refused, 400, undefined, currency);
      expect(refused.json()).toMatchObject({ errors: [{ field: 'currency', message: 'Invalid currency' }] });
    }
  });
});
