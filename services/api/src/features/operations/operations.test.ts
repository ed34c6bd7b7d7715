import {
  coinTrailResponse,
  errorCodes,
  eventLogResponse,
  ledgerVerificationResponse,
  ledgerVerificationStartResponse,
  operationResponse,
  pendingDepositsResponse,
  pendingWithdrawalsResponse,
  platformBalancesResponse,
} from '@peeks/contracts';
import { catchUp } from '@peeks/db';
import { merchantOwnerId, userOwnerId, walletIdOf, type Currency } from '@peeks/ledger';
import { executeLedgerCommand, platformBalances, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { makeFinanceOperator } from './operator.ts';
import { enteredDeposit, requestedWithdrawal, signedUpOperator } from '../../testing/operations.ts';

let subject: TestApp;
let operator: SignedIn;
let ann: SignedIn;
let shop: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  operator = await signedUpOperator(subject);
  ann = await signedUp(subject, 'personal');
  shop = await signedUp(subject, 'business');
});
afterAll(() => subject.close());

const ownerId = (who: SignedIn) => userOwnerId(who.user.user_id);
const operatorId = () => ownerId(operator);

async function balanceOf(owner: string, currency: Currency = 'CON') {
  const wallet = (await walletsOf(subject.database.db, owner)).find((each) => each.currency === currency);
  if (!wallet) throw new Error(`${owner} has no ${currency} wallet`);
  return { total: wallet.total, available: wallet.available, reserved: wallet.reserved };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  operator.browser.request('POST', url, body, headers);
const get = (url: string) => operator.browser.get(url);

async function transactionState(txId: string) {
  return subject.database.db
    .selectFrom('ledger_transactions')
    .select(['state', 'reason', 'reference'])
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
}

describe('who may use the operations console', () => {
  it('answers a user whose role was taken away with 403 at once, on the same session', async () => {
    const former = await signedUpOperator(subject);
    expect((await former.browser.get('/api/operations/deposits')).statusCode).toBe(200);
    await subject.database.db
      .updateTable('users')
      .set({ role: 'user' })
      .where('user_id', '=', former.user.user_id)
      .execute();
    expectRefusal(
      await former.browser.get('/api/operations/deposits'),
      403,
      errorCodes.financeOperatorOnly,
      'former operator',
    );
  });

  it('makes an operator only of a user who exists', async () => {
    expect(await makeFinanceOperator(subject.database.db, 999_999, new Date())).toBe(false);
  });
});

describe('e-mail transfer deposits', () => {
  it('lists the pending ones with what the user will send, filtered by method, reference, user and time', async () => {
    const first = await enteredDeposit(subject, ownerId(ann), { method: 'interac', amount: 40_00, currency: 'CAD' });
    const second = await enteredDeposit(subject, ownerId(ann), { method: 'zelle', amount: 25_00, currency: 'USD' });
    const list = async (query: string) =>
      pendingDepositsResponse.parse((await get(`/api/operations/deposits?${query}`)).json());

    const mine = await list(`user_id=${ann.user.user_id}`);
    expect(mine.deposits.map((deposit) => deposit.tx_id)).toEqual([first.txId, second.txId]);
    expect(mine.total).toBe(2);
    expect(mine.deposits[0]).toMatchObject({
      method: 'interac',
      reference: first.reference,
      payment: { amount: 40_00, currency: 'CAD' },
      coins: first.coins,
      owner_id: ownerId(ann),
      user_id: ann.user.user_id,
      username: ann.user.username,
      email: ann.user.email,
    });

    expect((await list(`user_id=${ann.user.user_id}&method=zelle`)).deposits.map((deposit) => deposit.tx_id)).toEqual([
      second.txId,
    ]);
    expect(
      (await list(`reference=${first.reference.slice(2).toLowerCase()}`)).deposits.map((deposit) => deposit.tx_id),
    ).toEqual([first.txId]);
    // A LIKE wildcard in the filter is taken literally.
    expect((await list(`user_id=${ann.user.user_id}&reference=%25`)).total).toBe(0);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`user_id=${ann.user.user_id}&from=${encodeURIComponent(later)}`)).total).toBe(0);
    expect((await list(`user_id=${ann.user.user_id}&to=${encodeURIComponent(later)}`)).total).toBe(2);
    expect(
      (await list(`user_id=${ann.user.user_id}&limit=1&offset=1`)).deposits.map((deposit) => deposit.tx_id),
    ).toEqual([second.txId]);
    expectRefusal(
      await get('/api/operations/deposits?method=bitcoin'),
      400,
      undefined,
      'bitcoin is not an e-mail transfer',
    );
    expectRefusal(await get('/api/operations/deposits?limit=201'), 400, undefined, 'limit above the cap');
  });

  it('clears a deposit only when the amount, currency and reference received match, crediting the coins it buys', async () => {
    const deposit = await enteredDeposit(subject, ownerId(ann), { amount: 50_00, currency: 'CAD' });
    const before = await balanceOf(ownerId(ann));
    const received = { tx_id: deposit.txId, amount_received: 50_00, currency: 'CAD', reference: deposit.reference };

    const wrongAmount = await post('/api/operations/clear-deposit', { ...received, amount_received: 49_99 });
    expectRefusal(wrongAmount, 422, errorCodes.depositAmountMismatch, 'short by a cent');
    expectRefusal(
      await post('/api/operations/clear-deposit', { ...received, amount_received: -50_00 }),
      400,
      errorCodes.amountNotPositive,
      'negative',
    );
    expect(wrongAmount.json<{ message: string }>().message).toContain(
      'received 49.99 CAD, the deposit expects 50.00 CAD',
    );
    expectRefusal(
      await post('/api/operations/clear-deposit', { ...received, currency: 'USD' }),
      422,
      errorCodes.depositAmountMismatch,
      'other currency',
    );
    const wrongReference = await post('/api/operations/clear-deposit', { ...received, reference: 'PKS00000000' });
    expectRefusal(wrongReference, 422, errorCodes.depositReferenceMismatch, 'other reference');
    expect(wrongReference.json<{ errors: { field?: string }[] }>().errors.map((error) => error.field)).toEqual([
      'reference',
    ]);
    const both = await post('/api/operations/clear-deposit', { ...received, amount_received: 1_00, reference: 'nope' });
    expect(both.json<{ errors: { code: number }[] }>().errors.map((error) => error.code)).toEqual([
      errorCodes.depositAmountMismatch,
      errorCodes.depositReferenceMismatch,
    ]);
    expect(await balanceOf(ownerId(ann))).toEqual(before);
    expect((await transactionState(deposit.txId)).state).toBe('pending');

    // Case and spaces are not part of a reference memo as a bank shows it.
    const spaced = `${deposit.reference.slice(0, 4)} ${deposit.reference.slice(4).toLowerCase()}`;
    const cleared = await post('/api/operations/clear-deposit', { ...received, reference: spaced });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(operationResponse.parse(cleared.json()).transaction).toMatchObject({
      tx_id: deposit.txId,
      state: 'completed',
      amount: deposit.coins,
      debit_credit: 'C',
    });
    expect(deposit.coins).toBe(Math.floor(20 * 50 * 0.78) * 100);
    expect(await balanceOf(ownerId(ann))).toEqual({
      ...before,
      total: before.total + deposit.coins,
      available: before.available + deposit.coins,
    });

    const event = await subject.database.db
      .selectFrom('events')
      .select(['type', 'data', 'metadata'])
      .where('stream_id', '=', `ledger-${deposit.txId}`)
      .where('stream_version', '=', 2)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      type: 'DepositCleared',
      data: { clearedBy: operatorId() },
      metadata: { actor: operatorId() },
    });

    expectRefusal(
      await post('/api/operations/clear-deposit', received),
      422,
      errorCodes.transactionStateInvalid,
      'cleared twice',
    );
    expect(await balanceOf(ownerId(ann))).toEqual({
      ...before,
      total: before.total + deposit.coins,
      available: before.available + deposit.coins,
    });
    const pending = pendingDepositsResponse.parse(
      (await get(`/api/operations/deposits?user_id=${ann.user.user_id}`)).json(),
    );
    expect(pending.deposits.map((each) => each.tx_id)).not.toContain(deposit.txId);
  });

  it('credits a deposit once when two operators clear it at the same time', async () => {
    const deposit = await enteredDeposit(subject, ownerId(ann));
    const other = await signedUpOperator(subject);
    const before = await balanceOf(ownerId(ann));
    const received = {
      tx_id: deposit.txId,
      amount_received: deposit.amount,
      currency: deposit.currency,
      reference: deposit.reference,
    };
    const answers = await Promise.all([
      operator.browser.post('/api/operations/clear-deposit', received),
      other.browser.post('/api/operations/clear-deposit', received),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
      200,
      answers.find((answer) => answer.statusCode !== 200)?.statusCode,
    ]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200))
      expect([409, 422]).toContain(answer.statusCode);
    expect((await balanceOf(ownerId(ann))).total).toBe(before.total + deposit.coins);
  });

  it('answers a clear retried with its Idempotency-Key with the first answer, crediting once; a refused try leaves the key free', async () => {
    const deposit = await enteredDeposit(subject, ownerId(ann));
    const before = await balanceOf(ownerId(ann));
    const received = {
      tx_id: deposit.txId,
      amount_received: deposit.amount,
      currency: deposit.currency,
      reference: deposit.reference,
    };
    const key = { 'idempotency-key': `clear-${deposit.txId}` };
    expectRefusal(
      await post('/api/operations/clear-deposit', { ...received, amount_received: 1_00 }, key),
      422,
      errorCodes.depositAmountMismatch,
      'mismatch under the key',
    );

    const answers = await Promise.all([
      post('/api/operations/clear-deposit', received, key),
      post('/api/operations/clear-deposit', received, key),
    ]);
    expect(
      answers.map((answer) => answer.statusCode),
      answers[1].body,
    ).toEqual([200, 200]);
    const retried = await post('/api/operations/clear-deposit', received, key);
    expect(retried.statusCode).toBe(200);
    // Whichever of the racing two claimed the key answered first; the others are replays and say so.
    expect(answers.map((answer) => answer.headers['idempotent-replayed']).sort()).toEqual(['true', undefined]);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const [first, second, third] = [...answers, retried].map((answer) => operationResponse.parse(answer.json()));
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(first?.transaction).toMatchObject({ tx_id: deposit.txId, state: 'completed' });
    expect((await balanceOf(ownerId(ann))).total).toBe(before.total + deposit.coins);

    expectRefusal(
      await post('/api/operations/reject-deposit', { tx_id: deposit.txId, reason: 'late' }, key),
      409,
      errorCodes.idempotencyKeyReused,
      'key reused for another step',
    );
    expectRefusal(
      await post('/api/operations/clear-deposit', received),
      422,
      errorCodes.transactionStateInvalid,
      'a repeat without the key',
    );
    expect((await balanceOf(ownerId(ann))).total).toBe(before.total + deposit.coins);
  });

  it('rejects a deposit with a reason, crediting nothing', async () => {
    const deposit = await enteredDeposit(subject, ownerId(ann));
    const before = await balanceOf(ownerId(ann));
    expectRefusal(
      await post('/api/operations/reject-deposit', { tx_id: deposit.txId, reason: '  ' }),
      400,
      errorCodes.requiredField,
      'blank reason',
    );
    expectRefusal(
      await post('/api/operations/reject-deposit', { tx_id: deposit.txId }),
      400,
      errorCodes.requiredField,
      'no reason',
    );
    const rejected = await post('/api/operations/reject-deposit', {
      tx_id: deposit.txId,
      reason: 'No transfer with this memo arrived',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(operationResponse.parse(rejected.json()).transaction).toMatchObject({
      state: 'rejected',
      fi_response_text: 'No transfer with this memo arrived',
    });
    expect(await transactionState(deposit.txId)).toMatchObject({
      state: 'rejected',
      reason: 'No transfer with this memo arrived',
    });
    expect(await balanceOf(ownerId(ann))).toEqual(before);
    const received = {
      tx_id: deposit.txId,
      amount_received: deposit.amount,
      currency: deposit.currency,
      reference: deposit.reference,
    };
    expectRefusal(
      await post('/api/operations/clear-deposit', received),
      422,
      errorCodes.transactionStateInvalid,
      'cleared after rejection',
    );
  });

  it('answers 404 for a transaction that is not an e-mail transfer deposit', async () => {
    const received = { amount_received: 10_00, currency: 'CAD', reference: 'PKS1' };
    expectRefusal(
      await post('/api/operations/clear-deposit', { ...received, tx_id: 'tx_nothing' }),
      404,
      errorCodes.depositNotFound,
      'unknown',
    );
    const bitcoin = await enteredDeposit(subject, ownerId(ann), { method: 'bitcoin', currency: 'USD' });
    expectRefusal(
      await post('/api/operations/clear-deposit', { ...received, tx_id: bitcoin.txId }),
      404,
      errorCodes.depositNotFound,
      'a bitcoin deposit',
    );
    expectRefusal(
      await post('/api/operations/reject-deposit', { tx_id: bitcoin.txId, reason: 'x' }),
      404,
      errorCodes.depositNotFound,
      'reject a bitcoin deposit',
    );
  });
});

describe('withdrawals', () => {
  it('lists the pending ones, and pays one out with its payout reference', async () => {
    await fund(subject, ownerId(ann), 300_00);
    const txId = await requestedWithdrawal(subject, ownerId(ann), 120_00);
    const before = await balanceOf(ownerId(ann));
    expect(before.reserved).toBe(120_00);

    const listed = pendingWithdrawalsResponse.parse(
      (await get(`/api/operations/withdrawals?user_id=${ann.user.user_id}&currency=CON`)).json(),
    );
    expect(listed.withdrawals).toEqual([
      expect.objectContaining({
        tx_id: txId,
        amount: 120_00,
        currency: 'CON',
        owner_id: ownerId(ann),
        user_id: ann.user.user_id,
        merchant_id: null,
        destination: 'card',
        payment_method: 'pm-test',
      }),
    ]);
    expect(
      pendingWithdrawalsResponse.parse(
        (await get(`/api/operations/withdrawals?user_id=${ann.user.user_id}&currency=USD`)).json(),
      ).total,
    ).toBe(0);

    expectRefusal(
      await post('/api/operations/process-withdrawal', { tx_id: txId }),
      400,
      errorCodes.requiredField,
      'no payout reference',
    );
    const processed = await post('/api/operations/process-withdrawal', { tx_id: txId, payout_reference: 'BANK-778' });
    expect(processed.statusCode, processed.body).toBe(200);
    expect(operationResponse.parse(processed.json()).transaction).toMatchObject({
      state: 'completed',
      reference: 'BANK-778',
      debit_credit: 'D',
    });
    expect(await balanceOf(ownerId(ann))).toEqual({
      total: before.total - 120_00,
      available: before.available,
      reserved: 0,
    });

    expectRefusal(
      await post('/api/operations/process-withdrawal', { tx_id: txId, payout_reference: 'BANK-778' }),
      422,
      errorCodes.transactionStateInvalid,
      'paid twice',
    );
    expectRefusal(
      await post('/api/operations/fail-withdrawal', { tx_id: txId, reason: 'late' }),
      422,
      errorCodes.transactionStateInvalid,
      'failed after payout',
    );
    expect((await balanceOf(ownerId(ann))).total).toBe(before.total - 120_00);
  });

  it('pays a withdrawal out once when the step is retried with its Idempotency-Key', async () => {
    await fund(subject, ownerId(ann), 30_00);
    const txId = await requestedWithdrawal(subject, ownerId(ann), 30_00);
    const before = await balanceOf(ownerId(ann));
    const key = { 'idempotency-key': `payout-${txId}` };
    const answers = [
      await post('/api/operations/process-withdrawal', { tx_id: txId, payout_reference: 'BANK-9' }, key),
      await post('/api/operations/process-withdrawal', { tx_id: txId, payout_reference: 'BANK-9' }, key),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers[1]?.json()).toEqual(answers[0]?.json());
    expect(await balanceOf(ownerId(ann))).toEqual({
      total: before.total - 30_00,
      available: before.available,
      reserved: before.reserved - 30_00,
    });
    expectRefusal(
      await post(
        '/api/operations/process-withdrawal',
        { tx_id: txId, payout_reference: 'BANK-9' },
        { 'idempotency-key': ' not ascii\u0000' },
      ),
      400,
      errorCodes.invalidFormat,
      'bad key',
    );
  });

  it('fails one with a reason: the reserved money is available again', async () => {
    await fund(subject, merchantOwnerId(shop.merchantId), 80_00);
    const txId = await requestedWithdrawal(subject, merchantOwnerId(shop.merchantId), 80_00);
    const listed = pendingWithdrawalsResponse.parse(
      (await get(`/api/operations/withdrawals?merchant_id=${shop.merchantId}`)).json(),
    );
    expect(listed.withdrawals.map((each) => [each.tx_id, each.merchant_id])).toEqual([[txId, shop.merchantId]]);
    expectRefusal(
      await post('/api/operations/fail-withdrawal', { tx_id: txId, reason: '' }),
      400,
      errorCodes.requiredField,
      'no reason',
    );
    const failed = await post('/api/operations/fail-withdrawal', { tx_id: txId, reason: 'Card account closed' });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(await transactionState(txId)).toMatchObject({ state: 'failed', reason: 'Card account closed' });
    expect(await balanceOf(merchantOwnerId(shop.merchantId))).toEqual({ total: 80_00, available: 80_00, reserved: 0 });
  });

  it('answers 404 for a transaction that is not a withdrawal', async () => {
    const deposit = await enteredDeposit(subject, ownerId(ann));
    expectRefusal(
      await post('/api/operations/process-withdrawal', { tx_id: deposit.txId, payout_reference: 'X' }),
      404,
      errorCodes.withdrawalNotFound,
      'a deposit',
    );
    expectRefusal(
      await post('/api/operations/fail-withdrawal', { tx_id: 'tx_nothing', reason: 'x' }),
      404,
      errorCodes.withdrawalNotFound,
      'unknown',
    );
  });
});

describe('corrections', () => {
  it('credits and debits a user wallet with a reason, the operator as its author', async () => {
    const bea = await signedUp(subject, 'personal');
    expectRefusal(
      await post('/api/operations/correct-balance', { user_id: bea.user.user_id, currency: 'USD', amount: 10_00 }),
      400,
      errorCodes.requiredField,
      'no reason',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: bea.user.user_id,
        currency: 'USD',
        amount: 10_00,
        reason: ' ',
      }),
      400,
      errorCodes.requiredField,
      'blank reason',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: bea.user.user_id,
        currency: 'USD',
        amount: 0,
        reason: 'nothing',
      }),
      400,
      errorCodes.invalidAmount,
      'zero',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: bea.user.user_id,
        currency: 'USD',
        amount: 1.5,
        reason: 'half',
      }),
      400,
      errorCodes.invalidAmount,
      'fraction',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: bea.user.user_id,
        currency: 'USD',
        amount: 2 ** 53,
        reason: 'huge',
      }),
      400,
      errorCodes.invalidAmount,
      'unsafe integer',
    );
    expect(await balanceOf(ownerId(bea), 'USD')).toEqual({ total: 0, available: 0, reserved: 0 });

    const credit = await post('/api/operations/correct-balance', {
      user_id: bea.user.user_id,
      currency: 'USD',
      amount: 25_00,
      reason: 'Refund of a duplicate card charge',
    });
    expect(credit.statusCode, credit.body).toBe(200);
    const { transaction } = operationResponse.parse(credit.json());
    expect(transaction).toMatchObject({ type: 'correction', amount: 25_00, currency: 'USD', debit_credit: 'C' });
    const event = await subject.database.db
      .selectFrom('events')
      .select(['data', 'metadata'])
      .where('stream_id', '=', `ledger-${transaction.tx_id}`)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      data: { operatorId: operatorId(), reason: 'Refund of a duplicate card charge' },
      metadata: { actor: operatorId() },
    });

    const debit = await post('/api/operations/correct-balance', {
      user_id: bea.user.user_id,
      currency: 'USD',
      amount: -5_00,
      reason: 'Refund sent twice',
    });
    expect(operationResponse.parse(debit.json()).transaction).toMatchObject({ amount: 5_00, debit_credit: 'D' });
    expect(await balanceOf(ownerId(bea), 'USD')).toEqual({ total: 20_00, available: 20_00, reserved: 0 });
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: bea.user.user_id,
        currency: 'USD',
        amount: -20_01,
        reason: 'Too much',
      }),
      422,
      errorCodes.insufficientFunds,
      'below zero',
    );
    expect(await balanceOf(ownerId(bea), 'USD')).toEqual({ total: 20_00, available: 20_00, reserved: 0 });
  });

  it('corrects a merchant wallet by merchant id; exactly one owner must be named, and one that exists', async () => {
    const correction = await post('/api/operations/correct-balance', {
      merchant_id: shop.merchantId,
      currency: 'CAD',
      amount: 7_00,
      reason: 'Settlement shortfall',
    });
    expect(correction.statusCode, correction.body).toBe(200);
    expect(await balanceOf(merchantOwnerId(shop.merchantId), 'CAD')).toMatchObject({ total: 7_00 });
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: ann.user.user_id,
        merchant_id: shop.merchantId,
        currency: 'CAD',
        amount: 1_00,
        reason: 'both',
      }),
      400,
      undefined,
      'both',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', { currency: 'CAD', amount: 1_00, reason: 'neither' }),
      400,
      undefined,
      'neither',
    );
    expectRefusal(
      await post('/api/operations/correct-balance', {
        user_id: 999_999,
        currency: 'CAD',
        amount: 1_00,
        reason: 'nobody',
      }),
      404,
      errorCodes.walletNotFound,
      'no such user',
    );
  });

  it('moves money once for a retried Idempotency-Key, and refuses the key for another correction', async () => {
    const cy = await signedUp(subject, 'personal');
    const form = { user_id: cy.user.user_id, currency: 'CON', amount: 15_00, reason: 'Promotion credit' };
    const key = { 'idempotency-key': `corr-${cy.user.user_id}` };
    const answers = await Promise.all([
      post('/api/operations/correct-balance', form, key),
      post('/api/operations/correct-balance', form, key),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [first, second] = answers.map((answer) => operationResponse.parse(answer.json()).transaction.tx_id);
    expect(second).toBe(first);
    expect(await balanceOf(ownerId(cy))).toMatchObject({ total: 15_00 });
    expectRefusal(
      await post('/api/operations/correct-balance', { ...form, amount: 16_00 }, key),
      409,
      errorCodes.idempotencyKeyReused,
      'key reused',
    );
    expect(await balanceOf(ownerId(cy))).toMatchObject({ total: 15_00 });
  });
});

describe('coin trail', () => {
  it('leads a coin received in a transfer back to the correction that minted it, with the event behind each step', async () => {
    const giver = await signedUp(subject, 'personal');
    const taker = await signedUp(subject, 'personal');
    const minted = operationResponse.parse(
      (
        await post('/api/operations/correct-balance', {
          user_id: giver.user.user_id,
          currency: 'CON',
          amount: 100_00,
          reason: 'Opening balance',
        })
      ).json(),
    ).transaction;
    const transfer = await executeLedgerCommand(
      subject.database.db,
      {
        type: 'Transfer',
        txId: `send-${taker.user.user_id}`,
        kind: 'P2P',
        fromOwnerId: ownerId(giver),
        toOwnerId: ownerId(taker),
        amount: 30_00,
        fee: 0,
        currency: 'CON',
        memo: null,
      },
      subject.app.ledgerSettings,
    );
    const coin = await subject.database.db
      .selectFrom('coins')
      .select('serial')
      .where('holder', '=', walletIdOf(ownerId(taker), 'CON'))
      .executeTakeFirstOrThrow();

    const answer = await get(`/api/operations/coin-trail?serial=${coin.serial}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const { trail } = coinTrailResponse.parse(answer.json());
    expect(trail[0]).toMatchObject({
      action: 'MINT',
      tx_id: minted.tx_id,
      event_type: 'BalanceCorrected',
      value: 100_00,
      to_account: walletIdOf(ownerId(giver), 'CON'),
    });
    expect(trail.at(-1)).toMatchObject({
      serial: coin.serial,
      tx_id: transfer.record.txId,
      event_type: 'FundsTransferred',
      to_account: walletIdOf(ownerId(taker), 'CON'),
    });
    expect(trail.map((step) => step.action)).toEqual(['MINT', 'SPLIT', 'SPLIT_INTO', 'MOVE']);
    const positions = trail.map((step) => step.event_position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const events = await subject.database.db
      .selectFrom('events')
      .select(['position', 'type', 'created_at'])
      .where('position', 'in', positions)
      .execute();
    for (const step of trail) {
      const event = events.find((each) => each.position === step.event_position);
      expect(event && { type: event.type, time: event.created_at.toISOString() }).toEqual({
        type: step.event_type,
        time: step.event_time,
      });
    }

    expectRefusal(
      await get('/api/operations/coin-trail?serial=PKS-NOSUCHCOIN'),
      404,
      errorCodes.coinNotFound,
      'unknown serial',
    );
    expectRefusal(await get('/api/operations/coin-trail'), 400, errorCodes.requiredField, 'no serial');
  });
});

describe('event log', () => {
  it('pages newest first and filters by stream prefix, type and time', async () => {
    const dee = await signedUp(subject, 'personal');
    const walletStreams = `wallet-wallet:${ownerId(dee)}:`;
    const page = async (query: string) => eventLogResponse.parse((await get(`/api/operations/events?${query}`)).json());

    const opened = await page(`stream=${encodeURIComponent(walletStreams)}`);
    expect(opened.events.map((event) => event.type)).toEqual([
      'WalletOpened',
      'WalletOpened',
      'WalletOpened',
      'WalletOpened',
    ]);
    expect(new Set(opened.events.map((event) => event.stream_id))).toEqual(
      new Set(['CAD', 'CON', 'IMP', 'USD'].map((currency) => `${walletStreams}${currency}`)),
    );
    expect(opened.next_before).toBeNull();

    const mark = new Date();
    await sleep(5);
    await fund(subject, ownerId(dee), 5_00);
    await fund(subject, ownerId(dee), 6_00);
    const corrections = await page(`type=BalanceCorrected&from=${encodeURIComponent(mark.toISOString())}`);
    expect(
      corrections.events.filter((event) => event.data.ownerId === ownerId(dee)).map((event) => event.data.amount),
    ).toEqual([6_00, 5_00]);
    const before = await page(`type=BalanceCorrected&stream=ledger-&to=${encodeURIComponent(mark.toISOString())}`);
    expect(before.events.some((event) => event.data.ownerId === ownerId(dee))).toBe(false);

    // Keyset pages: each continues strictly below the last, none repeats, together they are the whole log.
    const everything = await page('limit=200');
    const seen: number[] = [];
    let next: number | null = null;
    do {
      const current = await page(`limit=7${next === null ? '' : `&before=${next}`}`);
      seen.push(...current.events.map((event) => event.position));
      next = current.next_before;
    } while (next !== null && seen.length < 200);
    expect(seen.slice(0, everything.events.length)).toEqual(everything.events.map((event) => event.position));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));

    expectRefusal(await get('/api/operations/events?limit=500'), 400, undefined, 'above the cap');
    expectRefusal(await get('/api/operations/events?from=yesterday'), 400, undefined, 'not a time');
  });
});

describe('ledger verification and platform balances', () => {
  async function finished() {
    for (let waited = 0; waited < 60_000; waited += 50) {
      const { verification } = ledgerVerificationResponse.parse((await get('/api/operations/ledger-verify')).json());
      if (verification.state !== 'running') return verification;
      await sleep(50);
    }
    throw new Error('verification did not finish in a minute');
  }

  it('runs in the background, one run at a time, and reports the ledger sound, then a broken read model', async () => {
    expect(
      ledgerVerificationResponse.parse((await get('/api/operations/ledger-verify')).json()).verification,
    ).toMatchObject({ state: 'never run', ok: null });

    const starts = await Promise.all([
      post('/api/operations/ledger-verify', {}),
      post('/api/operations/ledger-verify', undefined),
    ]);
    const parsed = starts.map((answer) => ledgerVerificationStartResponse.parse(answer.json()));
    expect(parsed.map((answer) => answer.started).sort()).toEqual([false, true]);
    expect(parsed.map((answer) => answer.verification.state)).toEqual(['running', 'running']);

    const sound = await finished();
    expect(sound).toMatchObject({ state: 'finished', ok: true });
    expect(sound.report).toContain('Ledger verification: OK');
    expect(Date.parse(sound.finished_at ?? '')).toBeGreaterThanOrEqual(Date.parse(sound.started_at ?? ''));

    const wallet = walletIdOf(ownerId(ann), 'CON');
    await sql`UPDATE wallets SET total = total + 1, available = available + 1 WHERE wallet_id = ${wallet}`.execute(
      subject.database.db,
    );
    try {
      expect(
        ledgerVerificationStartResponse.parse((await post('/api/operations/ledger-verify', {})).json()).started,
      ).toBe(true);
      const broken = await finished();
      expect(broken).toMatchObject({ state: 'finished', ok: false });
      expect(broken.report).toContain('Ledger verification: FAILED');
      expect(broken.report).toContain(wallet);
    } finally {
      await sql`UPDATE wallets SET total = total - 1, available = available - 1 WHERE wallet_id = ${wallet}`.execute(
        subject.database.db,
      );
    }
  });

  it('shows the platform accounts as the projection has them', async () => {
    await post('/api/operations/correct-balance', {
      user_id: ann.user.user_id,
      currency: 'IMP',
      amount: 3,
      reason: 'Bonus impressions',
    });
    await catchUp(subject.database.db, platformBalances);
    const sheet = platformBalancesResponse.parse((await get('/api/operations/platform-balances')).json());
    expect(sheet.as_of).not.toBeNull();
    const corrections = sheet.balances.find((balance) => balance.account_id === 'platform:corrections:IMP');
    expect(corrections).toMatchObject({ currency: 'IMP', balance: -3, entries: 1 });
  });
});
