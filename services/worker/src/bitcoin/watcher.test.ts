import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import {
  executeLedgerCommand,
  loadTransaction,
  verifyLedger,
  walletsOf,
  type LedgerSettings,
} from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { esploraClient } from './esplora.ts';
import { bitcoinDepositor, startFakeEsplora, type FakeEsplora, type TestBitcoinDeposit } from '../testing/bitcoin.ts';
import { BITCOIN_WATCHER_ACTOR, watchDeposit, type BitcoinWatchDeps } from './watcher.ts';

const CONFIRMATIONS = 2;
let database: TestDatabase;
let esplora: FakeEsplora;
let workers: Workers;
let settings: LedgerSettings;
let depositor: Awaited<ReturnType<typeof bitcoinDepositor>>;
const log = createLogger({ LOG_LEVEL: 'silent' });

/** Workers polling the fake Esplora every second, clearing at two confirmations. */
beforeAll(async () => {
  database = await createTestDatabase();
  esplora = await startFakeEsplora();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    log,
    config: readConfig({
      BITCOIN_ESPLORA_URL: esplora.url,
      BITCOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      BITCOIN_POLL_SECONDS: '1',
    }),
  });
  settings = { holdHours: 24, jobs: workers.jobs };
  depositor = await bitcoinDepositor(database.db, 'btc_watch_user');
});
afterAll(async () => {
  await workers.stop();
  await esplora.close();
  await database.drop();
});

const deposit = (options: { sats: number; expiresInMs?: number }) => depositor.deposit(settings, options);
const watched = (txId: string) =>
  database.db
    .selectFrom('bitcoin_deposits')
    .select([
      'watch_state',
      'received_sats',
      'confirmed_sats',
      'payment_txids',
      'flag',
      'flag_reason',
      'seen_at',
      'flagged_at',
    ])
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
const stateOf = (given: TestBitcoinDeposit) =>
  expect.poll(async () => (await watched(given.txId)).watch_state, { timeout: 20_000, interval: 100 });
const coinBalance = async () =>
  (await walletsOf(database.db, depositor.ownerId)).find((wallet) => wallet.currency === 'CON')?.total ?? 0;
const clearedEvents = async (txId: string) =>
  (
    await sql<{ count: number }>`
  SELECT count(*)::int AS count FROM events WHERE stream_id = ${`ledger-${txId}`} AND type = 'DepositCleared'
`.execute(database.db)
  ).rows[0]?.count;
/** Until the watcher has asked about the address `polls` more times: it has seen what the chain shows now. */
async function polledAgain(address: string, polls = 2) {
  const before = esplora.asked(address);
  await expect
    .poll(() => esplora.asked(address), { timeout: 10_000, interval: 50 })
    .toBeGreaterThanOrEqual(before + polls);
}

describe('the bitcoin watcher against a fake Esplora', () => {
  it('takes a payment from the mempool through its confirmations to a deposit cleared once, at the quoted coins', async () => {
    const before = await coinBalance();
    const paid = await deposit({ sats: 15_385 });
    await polledAgain(paid.address);
    expect(await watched(paid.txId)).toMatchObject({ watch_state: 'pending', received_sats: 0, seen_at: null });

    const txid = esplora.pay(paid.address, paid.sats);
    await stateOf(paid).toBe('processing');
    expect(await watched(paid.txId)).toMatchObject({
      received_sats: paid.sats,
      confirmed_sats: 0,
      payment_txids: [txid],
      seen_at: expect.any(Date) as Date,
    });
    expect((await loadTransaction(database.db, paid.txId))?.state).toBe('pending');

    esplora.mine();
    await polledAgain(paid.address);
    expect(await watched(paid.txId)).toMatchObject({ watch_state: 'processing', confirmed_sats: 0 });
    expect(await coinBalance()).toBe(before);

    esplora.mine();
    await stateOf(paid).toBe('cleared');
    expect(await watched(paid.txId)).toMatchObject({ received_sats: paid.sats, confirmed_sats: paid.sats, flag: null });
    expect(await loadTransaction(database.db, paid.txId)).toMatchObject({ state: 'completed', amount: paid.coins });
    expect(await coinBalance()).toBe(before + paid.coins);

    // Later polls, and the deposit's own expiry job run early by hand, change nothing.
    await polledAgain(paid.address);
    const deps: BitcoinWatchDeps = {
      db: database.db,
      settings,
      esplora: esploraClient({ baseUrl: esplora.url, timeoutMs: 5_000 }),
      confirmations: CONFIRMATIONS,
      now: () => new Date(),
      log,
    };
    expect(await watchDeposit(deps, paid.txId)).toBe('unchanged');
    expect(await clearedEvents(paid.txId)).toBe(1);
    expect(await coinBalance()).toBe(before + paid.coins);
    const { rows } = await sql<{
      actor: string;
    }>`SELECT metadata->>'actor' AS actor FROM events WHERE stream_id = ${`ledger-${paid.txId}`} AND type = 'DepositCleared'`.execute(
      database.db,
    );
    expect(rows).toEqual([{ actor: BITCOIN_WATCHER_ACTOR }]);
  });

  it('clears once when several lookers race on the same confirmed payment', async () => {
    const before = await coinBalance();
    // A ledger with no queue: no expiry job, and the workers' poll races the calls below.
    const paid = await depositor.deposit({ holdHours: 24 }, { sats: 20_000 });
    esplora.pay(paid.address, paid.sats);
    esplora.mine({ more: CONFIRMATIONS });
    const deps: BitcoinWatchDeps = {
      db: database.db,
      settings,
      esplora: esploraClient({ baseUrl: esplora.url, timeoutMs: 5_000 }),
      confirmations: CONFIRMATIONS,
      now: () => new Date(),
      log,
    };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => watchDeposit(deps, paid.txId)));
    expect(outcomes.filter((outcome) => outcome === 'cleared').length).toBeLessThanOrEqual(1);
    await stateOf(paid).toBe('cleared');
    expect(await clearedEvents(paid.txId)).toBe(1);
    expect(await coinBalance()).toBe(before + paid.coins);
  });

  it('expires an unpaid deposit at its expiry, then flags a payment that arrives later, without crediting it', async () => {
    const before = await coinBalance();
    const late = await deposit({ sats: 30_000, expiresInMs: 2_000 });
    await stateOf(late).toBe('expired');
    expect((await loadTransaction(database.db, late.txId))?.state).toBe('expired');

    esplora.pay(late.address, late.sats);
    await stateOf(late).toBe('flagged');
    expect(await watched(late.txId)).toMatchObject({
      flag: 'late',
      flag_reason: '30000 sats arrived after the deposit expired (30000 sats were due)',
      received_sats: 30_000,
      flagged_at: expect.any(Date) as Date,
    });
    // Its amounts are still followed: the operator sees the payment confirm.
    esplora.mine({ more: CONFIRMATIONS });
    await expect
      .poll(async () => (await watched(late.txId)).confirmed_sats, { timeout: 10_000, interval: 100 })
      .toBe(30_000);
    expect(await watched(late.txId)).toMatchObject({ watch_state: 'flagged', flag: 'late' });
    expect((await loadTransaction(database.db, late.txId))?.state).toBe('expired');
    expect(await coinBalance()).toBe(before);
  });

  it('flags an overpayment once it is confirmed, and never credits it', async () => {
    const before = await coinBalance();
    const over = await deposit({ sats: 40_000 });
    esplora.pay(over.address, 40_001);
    await stateOf(over).toBe('processing');
    esplora.mine({ more: CONFIRMATIONS });
    await stateOf(over).toBe('flagged');
    expect(await watched(over.txId)).toMatchObject({
      flag: 'overpaid',
      flag_reason: '40001 sats confirmed, 1 more than the 40000 due',
    });
    expect((await loadTransaction(database.db, over.txId))?.state).toBe('pending');
    expect(await coinBalance()).toBe(before);
  });

  it('keeps an underpaid deposit open for the rest until its expiry, then flags it', async () => {
    const before = await coinBalance();
    const under = await deposit({ sats: 50_000, expiresInMs: 4_000 });
    esplora.pay(under.address, 49_000);
    esplora.mine({ more: CONFIRMATIONS });
    await expect
      .poll(async () => (await watched(under.txId)).confirmed_sats, { timeout: 10_000, interval: 100 })
      .toBe(49_000);
    expect((await watched(under.txId)).watch_state).toBe('processing');
    await stateOf(under).toBe('flagged');
    expect(await watched(under.txId)).toMatchObject({
      flag: 'underpaid',
      flag_reason: '49000 of the 50000 sats due had arrived when the deposit expired',
    });
    // The ledger's deposit is left for the operator: neither credited nor expired.
    expect((await loadTransaction(database.db, under.txId))?.state).toBe('pending');
    expect(await coinBalance()).toBe(before);
  });

  it('goes back to pending when a mempool payment is dropped, and expires if nothing else comes', async () => {
    const dropped = await deposit({ sats: 60_000, expiresInMs: 4_000 });
    const txid = esplora.pay(dropped.address, dropped.sats);
    await stateOf(dropped).toBe('processing');
    esplora.drop(txid);
    await stateOf(dropped).toBe('pending');
    await stateOf(dropped).toBe('expired');
    expect((await loadTransaction(database.db, dropped.txId))?.state).toBe('expired');
  });

  it('flags a payment to a deposit the ledger expired some other way, and does not expire it again', async () => {
    const before = await coinBalance();
    // No expiry job: the ledger's deposit is expired by hand, its clock a day ahead, while the watcher still has it pending.
    const closed = await depositor.deposit({ holdHours: 24 }, { sats: 70_000 });
    await executeLedgerCommand(
      database.db,
      { type: 'ExpireDeposit', txId: closed.txId },
      { holdHours: 24, now: () => new Date(Date.now() + 25 * 3_600_000) },
    );
    esplora.pay(closed.address, closed.sats);
    esplora.mine({ more: CONFIRMATIONS });
    await stateOf(closed).toBe('flagged');
    expect(await watched(closed.txId)).toMatchObject({ flag: 'late', received_sats: 70_000 });
    const { rows } = await sql<{
      type: string;
    }>`SELECT type FROM events WHERE stream_id = ${`ledger-${closed.txId}`} ORDER BY stream_version`.execute(
      database.db,
    );
    expect(rows.map((row) => row.type)).toEqual(['DepositEntered', 'DepositExpired']);
    expect(await coinBalance()).toBe(before);
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
