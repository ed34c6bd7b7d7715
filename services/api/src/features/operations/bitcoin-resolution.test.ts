import { bitcoinDepositsResponse, errorCodes, resolveBitcoinDepositResponse } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import {
  flaggedBitcoinDeposit,
  signedUpOperator,
  TESTNET_REFUND_ADDRESS,
  type FlaggedBitcoinDeposit,
} from '../../testing/operations.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { centsForSats, coinsForSats, creditTransactionId, satsToResolve } from './bitcoin-resolution.ts';

let subject: TestApp;
let operator: SignedIn;
let second: SignedIn;
let ann: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  operator = await signedUpOperator(subject);
  second = await signedUpOperator(subject);
  ann = await signedUp(subject, 'personal');
});
afterAll(() => subject.close());

const resolve = (body: Record<string, unknown>, headers: Record<string, string> = {}, who = operator) =>
  who.browser.request('POST', '/api/operations/resolve-bitcoin-deposit', body, headers);

async function coinBalance(ownerId: string) {
  return (await walletsOf(subject.database.db, ownerId)).find((wallet) => wallet.currency === 'CON')?.total ?? 0;
}

const ledgerState = (txId: string) =>
  subject.database.db
    .selectFrom('ledger_transactions')
    .select(['state', 'reason'])
    .where('tx_id', '=', txId)
    .executeTakeFirst();

const resolvedEvents = (txId: string) =>
  subject.database.db
    .selectFrom('events')
    .select(['type', 'data', 'metadata'])
    .where('stream_id', '=', `bitcoin-deposit-${txId}`)
    .execute();

const flagged = (flag: 'underpaid' | 'overpaid' | 'late' | 'paid-again', confirmedSats: number) =>
  flaggedBitcoinDeposit(subject, ann.user.user_id, { flag, confirmedSats });

describe('the satoshis to resolve and their coins', () => {
  it('counts what confirmed, less the quoted amount when the deposit had cleared', () => {
    expect(satsToResolve({ confirmed_sats: 15_000, amount_sats: 20_000 }, 'pending')).toBe(15_000);
    expect(satsToResolve({ confirmed_sats: 25_000, amount_sats: 20_000 }, 'completed')).toBe(5_000);
    expect(satsToResolve({ confirmed_sats: 20_000, amount_sats: 20_000 }, 'completed')).toBe(0);
  });

  it('prices them at the quote, rounded down, without overflow for a large payment', () => {
    expect(coinsForSats({ coins: 202_80, amount_sats: 20_000 }, 15_000)).toBe(152_10);
    expect(coinsForSats({ coins: 3, amount_sats: 20_000 }, 1)).toBe(0);
    // 39,000,000 × 2.1e12 is past 2^53; the quotient is not.
    expect(coinsForSats({ coins: 390_000_00, amount_sats: 100_000 }, 2_100_000_000_000)).toBe(819_000_000_000_000);
  });
});

describe('resolving a flagged bitcoin deposit', () => {
  it('credits what an underpaid deposit received at its quote and closes the pending deposit, as events by the operator', async () => {
    const deposit = await flagged('underpaid', 15_000);
    const before = await coinBalance(deposit.ownerId);
    const response = await resolve({ tx_id: deposit.txId, resolution: 'credit', reason: 'Keep what arrived' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = resolveBitcoinDepositResponse.parse(response.json());
    const coins = coinsForSats({ coins: deposit.coins, amount_sats: deposit.amountSats }, 15_000);
    expect(coins).toBeGreaterThan(0);
    expect(answer.transaction).toMatchObject({
      tx_id: creditTransactionId(deposit.txId),
      state: 'completed',
      amount: coins,
      debit_credit: 'C',
    });
    const operatorId = userOwnerId(operator.user.user_id);
    expect(answer.deposit).toMatchObject({
      tx_id: deposit.txId,
      state: 'flagged',
      ledger_state: 'rejected',
      resolution: 'credited',
      resolved_sats: 15_000,
      resolved_by: operatorId,
      credit_tx_id: creditTransactionId(deposit.txId),
      refund_address: null,
    });
    expect(await coinBalance(deposit.ownerId)).toBe(before + coins);
    expect((await ledgerState(deposit.txId))?.reason).toContain('Resolved by an operator: 15000 sats credited');
    const decisions = await resolvedEvents(deposit.txId);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      type: 'BitcoinDepositResolved',
      data: { resolution: 'credited', sats: 15_000, coins, resolvedBy: operatorId },
      metadata: { actor: operatorId },
    });
    const credit = await subject.database.db
      .selectFrom('events')
      .select(['type', 'metadata'])
      .where('stream_id', '=', `ledger-${creditTransactionId(deposit.txId)}`)
      .executeTakeFirstOrThrow();
    expect(credit).toMatchObject({ type: 'BitcoinPaymentCredited', metadata: { actor: operatorId } });
    // The satoshis' dollars at the quote ($13.00 for 20,000: $9.75 for 15,000) buy the coins through the exchange.
    const cents = centsForSats({ usd_cents: 13_00, amount_sats: deposit.amountSats }, 15_000);
    expect(cents).toBe(9_75);
    const entries = await subject.database.db
      .selectFrom('ledger_entries')
      .select(['account_id', 'currency', 'amount', 'debit_credit'])
      .where('tx_id', '=', creditTransactionId(deposit.txId))
      .orderBy('ledger_id')
      .execute();
    expect(entries.map((entry) => [entry.account_id, entry.debit_credit, entry.amount])).toEqual([
      ['platform:bitcoin-funding:USD', 'D', cents],
      ['platform:exchange:USD', 'C', cents],
      ['platform:exchange:CON', 'D', coins],
      [walletIdOf(deposit.ownerId, 'CON'), 'C', coins],
    ]);

    const workList = bitcoinDepositsResponse.parse(
      (await operator.browser.get(`/api/operations/bitcoin-deposits?state=flagged&resolved=no&limit=200`)).json(),
    );
    expect(workList.deposits.map((each) => each.tx_id)).not.toContain(deposit.txId);
    const done = bitcoinDepositsResponse.parse(
      (await operator.browser.get(`/api/operations/bitcoin-deposits?resolved=yes&limit=200`)).json(),
    );
    expect(done.deposits.map((each) => each.tx_id)).toContain(deposit.txId);
  });

  it('credits only the extra satoshis of a deposit paid again after it cleared, leaving the cleared deposit as it was', async () => {
    const deposit = await flagged('paid-again', 26_000);
    const before = await coinBalance(deposit.ownerId);
    const response = await resolve({ tx_id: deposit.txId, resolution: 'credit', reason: 'Paid twice, keep it' });
    expect(response.statusCode, response.body).toBe(200);
    const coins = coinsForSats({ coins: deposit.coins, amount_sats: deposit.amountSats }, 6_000);
    expect(await coinBalance(deposit.ownerId)).toBe(before + coins);
    expect((await ledgerState(deposit.txId))?.state).toBe('completed');
    expect(resolveBitcoinDepositResponse.parse(response.json()).deposit.resolved_sats).toBe(6_000);
  });

  it('records a refund to an address without crediting anything, and refuses an address that is not on the network', async () => {
    const deposit = await flagged('overpaid', 30_000);
    const before = await coinBalance(deposit.ownerId);
    for (const [refund_address, why] of [
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'a mainnet address on testnet'],
      ['tb1qnotanaddress', 'not an address'],
    ] as const) {
      expectRefusal(
        await resolve({ tx_id: deposit.txId, resolution: 'refund', refund_address, reason: 'Send it back' }),
        422,
        errorCodes.bitcoinAddressInvalid,
        why,
      );
    }
    for (const refund_address of [undefined, '   ']) {
      expectRefusal(
        await resolve({ tx_id: deposit.txId, resolution: 'refund', refund_address, reason: 'Send it back' }),
        400,
        undefined,
        'no refund address',
      );
    }
    expect(await resolvedEvents(deposit.txId)).toEqual([]);

    const response = await resolve({
      tx_id: deposit.txId,
      resolution: 'refund',
      refund_address: TESTNET_REFUND_ADDRESS,
      reason: 'Send it back',
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = resolveBitcoinDepositResponse.parse(response.json());
    expect(answer.transaction).toBeNull();
    expect(answer.deposit).toMatchObject({
      resolution: 'refunded',
      resolved_sats: 30_000,
      refund_address: TESTNET_REFUND_ADDRESS,
      credit_tx_id: null,
      ledger_state: 'rejected',
    });
    expect(await coinBalance(deposit.ownerId)).toBe(before);
    expect((await ledgerState(deposit.txId))?.reason).toContain(`30000 sats refunded to ${TESTNET_REFUND_ADDRESS}`);
  });

  it('refuses a deposit that is not flagged, one already resolved, one with nothing confirmed, and one that does not exist', async () => {
    const deposit = await flagged('late', 9_000);
    await subject.database.db
      .updateTable('bitcoin_deposits')
      .set({ watch_state: 'processing', flag: null, flag_reason: null, flagged_at: null })
      .where('tx_id', '=', deposit.txId)
      .execute();
    expectRefusal(
      await resolve({ tx_id: deposit.txId, resolution: 'credit', reason: 'x' }),
      422,
      errorCodes.bitcoinDepositNotFlagged,
      'processing',
    );
    const nothing = await flagged('late', 0);
    expectRefusal(
      await resolve({ tx_id: nothing.txId, resolution: 'credit', reason: 'x' }),
      422,
      errorCodes.nothingToResolve,
      'nothing confirmed',
    );
    expectRefusal(
      await resolve({ tx_id: 'no-such-deposit', resolution: 'credit', reason: 'x' }),
      404,
      errorCodes.bitcoinDepositNotFound,
      'unknown',
    );
    const once = await flagged('late', 9_000);
    expect((await resolve({ tx_id: once.txId, resolution: 'credit', reason: 'x' })).statusCode).toBe(200);
    expectRefusal(
      await resolve({ tx_id: once.txId, resolution: 'refund', refund_address: TESTNET_REFUND_ADDRESS, reason: 'x' }),
      422,
      errorCodes.bitcoinDepositNotFlagged,
      'resolved twice',
    );
  });

  it('answers a retry with the same Idempotency-Key with the first answer, crediting once', async () => {
    const deposit = await flagged('underpaid', 12_000);
    const before = await coinBalance(deposit.ownerId);
    const key = { 'idempotency-key': `resolve-${deposit.txId}` };
    const body = { tx_id: deposit.txId, resolution: 'credit', reason: 'Keep what arrived' };
    const [first, retry, concurrent] = await Promise.all([resolve(body, key), resolve(body, key), resolve(body, key)]);
    for (const response of [first, retry, concurrent]) expect(response.statusCode, response.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(concurrent.json()).toEqual(first.json());
    expect((await resolve(body, key)).json()).toEqual(first.json());
    const coins = coinsForSats({ coins: deposit.coins, amount_sats: deposit.amountSats }, 12_000);
    expect(await coinBalance(deposit.ownerId)).toBe(before + coins);
    expect(await resolvedEvents(deposit.txId)).toHaveLength(1);
    expectRefusal(
      await resolve({ ...body, reason: 'Another reason' }, key),
      409,
      errorCodes.idempotencyKeyReused,
      'same key, other request',
    );
  });

  it('resolves a deposit once when two operators resolve it at the same moment', async () => {
    const deposits: FlaggedBitcoinDeposit[] = [];
    for (let index = 0; index < 4; index++) deposits.push(await flagged('overpaid', 21_000 + index));
    const before = await coinBalance(deposits[0]?.ownerId ?? '');
    const answers = await Promise.all(
      deposits.flatMap((deposit) => [
        resolve({ tx_id: deposit.txId, resolution: 'credit', reason: 'Keep it all' }, {}, operator),
        resolve(
          { tx_id: deposit.txId, resolution: 'refund', refund_address: TESTNET_REFUND_ADDRESS, reason: 'Return' },
          {},
          second,
        ),
      ]),
    );
    let credited = 0;
    for (const [index, deposit] of deposits.entries()) {
      const pair = [answers[2 * index], answers[2 * index + 1]];
      const codes = pair.map((response) => response?.statusCode).sort();
      expect(codes).toEqual([200, 422]);
      if (pair[0]?.statusCode === 200)
        credited += coinsForSats({ coins: deposit.coins, amount_sats: deposit.amountSats }, 21_000 + index);
      expect(await resolvedEvents(deposit.txId)).toHaveLength(1);
    }
    expect(await coinBalance(deposits[0]?.ownerId ?? '')).toBe(before + credited);
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });
  });
});
