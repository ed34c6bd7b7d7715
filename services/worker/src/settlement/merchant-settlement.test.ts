import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { cashPriceOfCoins, DEFAULT_RATE_MICROS, merchantOwnerId, userOwnerId, type Currency } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, verifyLedger, walletsOf, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { MERCHANT_SETTLEMENT_QUEUE, SETTLEMENT_RUN_QUEUE } from '@peeks/jobs';
import { merchantBatchIdOf, settleMerchantBatch, settlementTxIdOf } from './merchant-settlement.ts';

const HOLD_HOURS = 24;
const coffee = merchantOwnerId(1);
const books = merchantOwnerId(2);
const payer = userOwnerId(1);
let database: TestDatabase;
let workers: Workers;
let settings: LedgerSettings;

beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    config: readConfig({ HOLD_HOURS: String(HOLD_HOURS) }),
    log: createLogger({ LOG_LEVEL: 'silent' }),
  });
  settings = { holdHours: HOLD_HOURS, jobs: workers.jobs };
  for (const owner of [coffee, books, payer]) await openWallets(database.db, owner, { currencies: ['USD', 'CAD'] });
  await correct(payer, 1_000_00, 'USD');
});
afterAll(async () => {
  await workers.stop();
  await database.drop();
});

const correct = (ownerId: string, amount: number, currency: Currency) =>
  executeLedgerCommand(
    database.db,
    { type: 'CorrectBalance', txId: randomUUID(), ownerId, amount, currency, reason: 'test funds', operatorId: 'test' },
    settings,
  );

/** A checkout payment to the merchant: on hold for HOLD_HOURS, unless `settingsAt` places it in the past. */
const sale = (merchant: string, amount: number, settingsAt = settings) =>
  executeLedgerCommand(
    database.db,
    {
      type: 'Transfer',
      txId: randomUUID(),
      kind: 'PURCHASE',
      fromOwnerId: payer,
      toOwnerId: merchant,
      amount,
      fee: 0,
      currency: 'USD',
      memo: null,
    },
    settingsAt,
  );

const wallet = async (owner: string, currency: Currency) =>
  (await walletsOf(database.db, owner)).find((each) => each.currency === currency);

async function settlementAccount(currency: Currency): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    SELECT coalesce(sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END), 0)::int8 AS total FROM ledger_entries WHERE account_id = ${`platform:settlement:${currency}`}
  `.execute(database.db);
  return rows[0]?.total ?? 0;
}

const batchesOf = (merchant: string) =>
  database.db
    .selectFrom('ledger_transactions')
    .select(['tx_id', 'merchant_batch_id', 'amount', 'currency'])
    .where('type', '=', 'settlement')
    .where('payer_owner_id', '=', merchant)
    .orderBy('merchant_batch_id')
    .execute();

/** What SETTLEMENT_CRON does, for a given day: the run, then its batch jobs, done by the workers. */
async function runSettlement(period: string, expectedBatches: number): Promise<void> {
  await workers.boss.send(SETTLEMENT_RUN_QUEUE.name, { period });
  await expect
    .poll(
      async () =>
        (
          await database.db
            .selectFrom('ledger_transactions')
            .select('tx_id')
            .where('merchant_batch_id', 'like', `%:${period}`)
            .execute()
        ).length,
      { timeout: 20_000, interval: 200 },
    )
    .toBe(expectedBatches);
  // Every batch job of the period has finished (a batch with nothing to settle writes nothing).
  await expect
    .poll(
      async () =>
        (
          await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM pgboss.job WHERE name IN (${SETTLEMENT_RUN_QUEUE.name}, ${MERCHANT_SETTLEMENT_QUEUE.name}) AND state <> 'completed'
  `.execute(database.db)
        ).rows[0]?.count,
      { timeout: 20_000, interval: 200 },
    )
    .toBe(0);
}

describe('merchant settlement', () => {
  it("moves each merchant wallet's withdrawable money to the settlement account, once per period; money on hold at the run is not in its batch", async () => {
    const past = { ...settings, now: () => new Date(Date.now() - (HOLD_HOURS + 1) * 3_600_000) };
    await sale(coffee, 120_00, past);
    await expect
      .poll(async () => (await wallet(coffee, 'USD'))?.withdrawable, { timeout: 15_000, interval: 200 })
      .toBe(120_00);
    await sale(coffee, 30_00); // today's sale: still on hold
    await correct(books, 45_00, 'CAD');
    const userBefore = await wallet(payer, 'USD');

    await runSettlement('2026-11-20', 2);
    expect(await batchesOf(coffee)).toEqual([
      {
        tx_id: settlementTxIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-20' }),
        merchant_batch_id: `${coffee}:USD:2026-11-20`,
        amount: 120_00,
        currency: 'USD',
      },
    ]);
    expect(await batchesOf(books)).toMatchObject([
      { merchant_batch_id: `${books}:CAD:2026-11-20`, amount: 45_00, currency: 'CAD' },
    ]);
    expect(await wallet(coffee, 'USD')).toMatchObject({ total: 30_00, available: 30_00 });
    expect(await wallet(books, 'CAD')).toMatchObject({ total: 0 });
    expect(await settlementAccount('USD')).toBe(120_00);
    expect(await settlementAccount('CAD')).toBe(45_00);
    expect(await wallet(payer, 'USD')).toEqual(userBefore);

    // The same period again (a retry, a catch-up, a second worker): nothing more moves.
    await correct(books, 5_00, 'CAD');
    await runSettlement('2026-11-20', 2);
    expect(
      await settleMerchantBatch(database.db, settings, { ownerId: books, currency: 'CAD', period: '2026-11-20' }),
    ).toBe('already settled');
    expect(await settlementAccount('CAD')).toBe(45_00);
    expect((await batchesOf(books)).length).toBe(1);

    // The next period settles what became withdrawable since.
    await runSettlement('2026-11-21', 2);
    expect(await settlementAccount('CAD')).toBe(50_00);
    expect((await batchesOf(books)).map((batch) => batch.merchant_batch_id)).toEqual([
      `${books}:CAD:2026-11-20`,
      `${books}:CAD:2026-11-21`,
    ]);
  });

  it('names each batch by merchant, currency and day', () => {
    expect(merchantBatchIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-21' })).toBe(
      'merchant-1:USD:2026-11-21',
    );
    expect(settlementTxIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-21' })).toBe(
      settlementTxIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-21' }),
    );
    expect(settlementTxIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-21' })).not.toBe(
      settlementTxIdOf({ ownerId: coffee, currency: 'USD', period: '2026-11-22' }),
    );
  });

  it('leaves coins a card paid for out of a batch until they mature', async () => {
    const tea = merchantOwnerId(3);
    await openWallets(database.db, tea);
    // Paid by card a day and an hour ago: past the hold, not past the card funds hold (168 hours).
    const past = { ...settings, now: () => new Date(Date.now() - (HOLD_HOURS + 1) * 3_600_000) };
    await executeLedgerCommand(
      database.db,
      {
        type: 'Transfer',
        txId: randomUUID(),
        kind: 'PURCHASE',
        fromOwnerId: payer,
        toOwnerId: tea,
        amount: 300_00,
        fee: 0,
        currency: 'CON',
        memo: null,
        fundedBy: {
          paymentMethod: { id: 'card-1', type: 'CC' },
          charge: { amount: cashPriceOfCoins(300_00, 'USD', DEFAULT_RATE_MICROS), currency: 'USD' },
          rateMicros: DEFAULT_RATE_MICROS,
        },
      },
      past,
    );
    await correct(tea, 200_00, 'CON');
    await expect
      .poll(async () => (await wallet(tea, 'CON'))?.withdrawable, { timeout: 15_000, interval: 200 })
      .toBe(500_00);

    const batch = { ownerId: tea, currency: 'CON' as const };
    expect(await settleMerchantBatch(database.db, settings, { ...batch, period: '2026-11-22' })).toEqual({
      settled: 200_00,
      batchId: merchantBatchIdOf({ ...batch, period: '2026-11-22' }),
    });
    const matured = { ...settings, now: () => new Date(Date.now() + 168 * 3_600_000) };
    expect(await settleMerchantBatch(database.db, matured, { ...batch, period: '2026-11-23' })).toEqual({
      settled: 300_00,
      batchId: merchantBatchIdOf({ ...batch, period: '2026-11-23' }),
    });
    expect(await wallet(tea, 'CON')).toMatchObject({ total: 0 });
  });

  it('keeps the ledger whole', async () => {
    const report = await verifyLedger(database.db);
    expect({ differences: report.differences, invariantFailures: report.invariantFailures, ok: report.ok }).toEqual({
      differences: [],
      invariantFailures: [],
      ok: true,
    });
  });
});
