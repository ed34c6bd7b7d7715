import { createTestDatabase, tamper, type TestDatabase } from '@peeks/db/testing';
import {
  DEFAULT_RATE_MICROS,
  LedgerRuleViolation,
  walletIdOf,
  type LedgerCommand,
  type RefusalCode,
} from '@peeks/ledger';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLedgerCommand } from './execute.ts';
import { coinsOf, coinTrail, transactionAudit, walletsOf } from './queries.ts';
import { verifyLedger } from './verify.ts';
import type { LedgerSettings } from './types.ts';
import { openWallets } from './wallets.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

let clock = new Date('2026-11-21T10:00:00Z');
const settings: LedgerSettings = { holdHours: 24, now: () => clock };
const run = (command: LedgerCommand) => executeLedgerCommand(database.db, command, settings);
const card = { id: 'pm-1', type: 'CC' };
let txCounter = 0;
const txId = () => `tx-${++txCounter}`;

async function balance(ownerId: string, currency = 'CON') {
  const wallet = (await walletsOf(database.db, ownerId)).find((candidate) => candidate.currency === currency);
  if (!wallet) throw new Error(`no ${currency} wallet for ${ownerId}`);
  return {
    total: wallet.total,
    available: wallet.available,
    withdrawable: wallet.withdrawable,
    reserved: wallet.reserved,
  };
}

async function refusal(command: LedgerCommand): Promise<RefusalCode> {
  const error: unknown = await run(command).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof LedgerRuleViolation)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.code;
}

describe('a day in the ledger', () => {
  it('buys coins, sends some on hold, releases the hold, withdraws, and verifies', async () => {
    await openWallets(database.db, 'alice');
    await openWallets(database.db, 'bob');

    // 100.00 USD at 0.78 buys floor(20 × 100 × 0.78) = 1560 coins.
    const purchase = await run({
      type: 'PurchaseCoins',
      txId: txId(),
      ownerId: 'alice',
      charge: { amount: 100_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: card,
    });
    expect(purchase.record).toMatchObject({ type: 'purchase', state: 'completed', amount: 1560_00, currency: 'CON' });
    expect(await balance('alice')).toEqual({ total: 1560_00, available: 1560_00, withdrawable: 1560_00, reserved: 0 });

    const sendId = txId();
    const send = {
      type: 'Transfer',
      txId: sendId,
      kind: 'P2P',
      fromOwnerId: 'alice',
      toOwnerId: 'bob',
      amount: 250_50,
      fee: 0,
      currency: 'CON',
      memo: null,
    } as const;
    await run(send);
    expect(await balance('alice')).toEqual({ total: 1309_50, available: 1309_50, withdrawable: 1309_50, reserved: 0 });
    expect(await balance('bob')).toEqual({ total: 250_50, available: 250_50, withdrawable: 0, reserved: 0 });

    // The same transaction id again is a retry: the first outcome, nothing moved.
    const retried = await run(send);
    expect(retried.replayed).toBe(true);
    expect(await balance('alice')).toMatchObject({ total: 1309_50 });

    // Held money can be spent but not withdrawn, and the hold ends only after HOLD_HOURS.
    expect(
      await refusal({
        type: 'RequestWithdrawal',
        txId: txId(),
        ownerId: 'bob',
        amount: 100,
        currency: 'CON',
        destination: { kind: 'card', paymentMethodId: 'pm-2' },
      }),
    ).toBe('funds_on_hold');
    expect(await refusal({ type: 'ReleaseHold', txId: sendId })).toBe('transaction_state_invalid');
    clock = new Date(clock.getTime() + 24 * 3_600_000);
    await run({ type: 'ReleaseHold', txId: sendId });
    expect(await refusal({ type: 'ReleaseHold', txId: sendId })).toBe('transaction_state_invalid');
    expect(await balance('bob')).toEqual({ total: 250_50, available: 250_50, withdrawable: 250_50, reserved: 0 });

    // Released, but the coins were bought by card: they can be withdrawn as cash only once they mature, a week on.
    const cashOut = {
      type: 'RequestWithdrawal',
      txId: txId(),
      ownerId: 'bob',
      amount: 50_25,
      currency: 'CON',
      destination: { kind: 'card', paymentMethodId: 'pm-2' },
    } as const;
    expect(await refusal(cashOut)).toBe('card_funds_maturing');
    clock = new Date(clock.getTime() + 144 * 3_600_000);

    const withdrawalId = txId();
    await run({
      type: 'RequestWithdrawal',
      txId: withdrawalId,
      ownerId: 'bob',
      amount: 50_25,
      currency: 'CON',
      destination: { kind: 'card', paymentMethodId: 'pm-2' },
    });
    expect(await balance('bob')).toEqual({ total: 250_50, available: 200_25, withdrawable: 200_25, reserved: 50_25 });
    await run({ type: 'ProcessWithdrawal', txId: withdrawalId, payoutReference: 'payout-1' });
    expect(await balance('bob')).toEqual({ total: 200_25, available: 200_25, withdrawable: 200_25, reserved: 0 });

    const coins = await coinsOf(database.db, 'bob', { offset: 0, limit: 50 });
    expect(coins.coins.reduce((sum, coin) => sum + coin.value, 0)).toBe(200_25);

    // Bob's change coin leads back through two splits to Alice's purchase.
    const [change] = coins.coins;
    const trail = await coinTrail(database.db, change?.serial ?? '');
    expect(trail[0]).toMatchObject({
      action: 'MINT',
      txId: purchase.record.txId,
      value: 1560_00,
      eventType: 'CoinsPurchased',
    });
    expect(trail.map((step) => step.eventType)).toEqual([
      'CoinsPurchased',
      'FundsTransferred',
      'FundsTransferred',
      'FundsTransferred',
      'WithdrawalRequested',
      'WithdrawalRequested',
    ]);
    expect(trail.map((step) => step.action)).toEqual(['MINT', 'SPLIT', 'SPLIT_INTO', 'MOVE', 'SPLIT', 'SPLIT_INTO']);
    expect(trail.at(-1)?.fromSerial).toMatch(/^PKS-[0-9A-F]{20}::CON:\d+$/);

    const audit = await transactionAudit(database.db, withdrawalId);
    expect(audit.map((entry) => entry.action)).toEqual(['SPLIT', 'SPLIT_INTO', 'SPLIT_INTO', 'RESERVE', 'BURN']);

    const report = await verifyLedger(database.db);
    expect(report).toMatchObject({ ok: true, differences: [], invariantFailures: [] });
    expect(report.eventsReplayed).toBeGreaterThan(8);
  });

  it('reports a read model that no longer matches the log', async () => {
    await sql`UPDATE wallets SET total = total + 1, available = available + 1, withdrawable = withdrawable + 1 WHERE wallet_id = 'wallet:bob:CON'`.execute(
      database.db,
    );
    const report = await verifyLedger(database.db);
    expect(report.ok).toBe(false);
    expect(
      report.differences.map((difference) => [difference.table, difference.extraInLive, difference.missingFromLive]),
    ).toEqual([['wallets', 1, 1]]);
    expect(report.invariantFailures.join('\n')).toContain('wallet:bob:CON: total 20026, entries sum to 20025');
    await sql`UPDATE wallets SET total = total - 1, available = available - 1, withdrawable = withdrawable - 1 WHERE wallet_id = 'wallet:bob:CON'`.execute(
      database.db,
    );
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it("reports a transaction's event changed behind the log's back", async () => {
    const {
      rows: [sent],
    } = await sql<{ stream_id: string; data: unknown }>`
      SELECT stream_id, data FROM events WHERE type = 'FundsTransferred' ORDER BY position LIMIT 1
    `.execute(database.db);
    const rewrite = (data: unknown) =>
      tamper(
        database.db,
        sql`UPDATE events SET data = ${JSON.stringify(data)}::jsonb WHERE stream_id = ${sent?.stream_id} AND stream_version = 1`,
      );

    await rewrite({ ...(sent?.data as object), memo: 'changed' });
    const report = await verifyLedger(database.db);
    expect(report.ok).toBe(false);
    expect(report.chains.breaks).toEqual([
      { streamId: sent?.stream_id, version: 1, reason: 'stored fields do not hash to the stored hash' },
    ]);
    await rewrite(sent?.data);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('refuses what the rules forbid, with the catalogue code, and writes nothing', async () => {
    await openWallets(database.db, 'carol', { currencies: ['CON', 'USD'] });
    const before = await balance('carol');
    const transfer = (fields: Partial<Extract<LedgerCommand, { type: 'Transfer' }>>): LedgerCommand => ({
      type: 'Transfer',
      txId: txId(),
      kind: 'P2P',
      fromOwnerId: 'carol',
      toOwnerId: 'alice',
      amount: 100,
      fee: 0,
      currency: 'CON',
      memo: null,
      ...fields,
    });
    expect(await refusal(transfer({}))).toBe('insufficient_funds');
    expect(await refusal(transfer({ amount: 0 }))).toBe('amount_not_positive');
    expect(await refusal(transfer({ amount: 1.5 }))).toBe('invalid_amount');
    expect(await refusal(transfer({ amount: 500_01 }))).toBe('amount_above_limit');
    expect(await refusal(transfer({ toOwnerId: 'carol' }))).toBe('send_to_self');
    expect(await refusal(transfer({ toOwnerId: 'nobody' }))).toBe('wallet_not_found');
    expect(
      await refusal({
        type: 'DepositByCard',
        txId: txId(),
        ownerId: 'carol',
        amount: 100_00,
        currency: 'CON',
        paymentMethod: card,
      }),
    ).toBe('currency_mismatch');
    expect(
      await refusal({
        type: 'DepositByCard',
        txId: txId(),
        ownerId: 'carol',
        amount: 50,
        currency: 'USD',
        paymentMethod: card,
      }),
    ).toBe('amount_below_minimum');
    expect(await refusal({ type: 'ClearDeposit', txId: 'tx-missing', clearedBy: 'ops' })).toBe('transaction_not_found');
    expect(await balance('carol')).toEqual(before);
    expect(walletIdOf('carol', 'CON')).toBe('wallet:carol:CON');
  });

  it('pays with more coins than the first read brings, and with several spenders read together', async () => {
    await openWallets(database.db, 'dave');
    await openWallets(database.db, 'erin');
    await run({
      type: 'PurchaseCoins',
      txId: txId(),
      ownerId: 'erin',
      charge: { amount: 100_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: card,
    });
    // Twenty coins of 1.00 to dave; the ledger reads a spender's 16 largest first.
    for (let coin = 0; coin < 20; coin++) {
      await run({
        type: 'Transfer',
        txId: txId(),
        kind: 'P2P',
        fromOwnerId: 'erin',
        toOwnerId: 'dave',
        amount: 100,
        fee: 0,
        currency: 'CON',
        memo: null,
      });
    }
    const both = await Promise.all([
      run({
        type: 'Transfer',
        txId: txId(),
        kind: 'P2P',
        fromOwnerId: 'dave',
        toOwnerId: 'alice',
        amount: 19_50,
        fee: 0,
        currency: 'CON',
        memo: null,
      }),
      run({
        type: 'Transfer',
        txId: txId(),
        kind: 'P2P',
        fromOwnerId: 'erin',
        toOwnerId: 'bob',
        amount: 10,
        fee: 0,
        currency: 'CON',
        memo: null,
      }),
    ]);
    expect(both.map((outcome) => outcome.record.state)).toEqual(['completed', 'completed']);
    expect(await balance('dave')).toMatchObject({ total: 50 });
    expect((await coinsOf(database.db, 'dave', { offset: 0, limit: 50 })).coins.map((coin) => coin.value)).toEqual([
      50,
    ]);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});
