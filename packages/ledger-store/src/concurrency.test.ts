import { catchUp, connectDatabase, fingerprintRequest, GENESIS_HASH, runIdempotently, type Database } from '@peeks/db';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS, LedgerRuleViolation, type LedgerCommand, type RefusalCode } from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLedgerCommand } from './execute.ts';
import pg from 'pg';
import {
  groupCommitContention,
  groupCommitCounts,
  WALLET_CHANGES_CHANNEL,
  walletChangeFollower,
} from './group-commit.ts';
import { platformBalances } from './platform-balances.ts';
import { verifyLedger } from './verify.ts';
import { openWallets } from './wallets.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 50 });
});
afterAll(() => database.drop());

const settings = { holdHours: 24 };
let txNumber = 0;
const txId = (label: string) => `${label}-${++txNumber}`;
const transfer = (fromOwnerId: string, toOwnerId: string, amount: number): LedgerCommand => ({
  type: 'Transfer',
  txId: txId('transfer'),
  kind: 'P2P',
  fromOwnerId,
  toOwnerId,
  amount,
  fee: 0,
  currency: 'CON',
  memo: null,
});

/** Opens the owner's CON wallet and buys `cash` cents of coins; returns the coins bought. */
async function fund(ownerId: string, cash = 500_00): Promise<number> {
  await openWallets(database.db, ownerId, { currencies: ['CON'] });
  const { record } = await executeLedgerCommand(
    database.db,
    {
      type: 'PurchaseCoins',
      txId: txId('purchase'),
      ownerId,
      charge: { amount: cash, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'pm', type: 'CC' },
    },
    settings,
  );
  return record.amount;
}

async function conTotal(ownerPrefix: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    SELECT coalesce(sum(total), 0)::bigint AS total FROM wallets WHERE currency = 'CON' AND owner_id LIKE ${`${ownerPrefix}%`}
  `.execute(database.db);
  return rows[0]?.total ?? 0;
}

/** Settles every promise; refusals by the ledger's rules are counted, anything else is rethrown. */
async function outcomes(
  attempts: Promise<unknown>[],
): Promise<{ succeeded: number; refused: Map<RefusalCode, number> }> {
  const settled = await Promise.allSettled(attempts);
  const refused = new Map<RefusalCode, number>();
  let succeeded = 0;
  for (const result of settled) {
    if (result.status === 'fulfilled') succeeded += 1;
    else if (result.reason instanceof LedgerRuleViolation)
      refused.set(result.reason.code, (refused.get(result.reason.code) ?? 0) + 1);
    else throw result.reason;
  }
  return { succeeded, refused };
}

describe('concurrent spending', () => {
  it('lets 50 parallel senders draining one wallet spend exactly what it holds', async () => {
    // 1.00 USD buys 15 coins: 1500 minor units, so exactly 15 sends of 100 fit.
    const balance = await fund('drain-source', 1_00);
    expect(balance).toBe(15_00);
    for (let index = 0; index < 50; index++)
      await openWallets(database.db, `drain-target-${index}`, { currencies: ['CON'] });

    const { succeeded, refused } = await outcomes(
      Array.from({ length: 50 }, (_, index) =>
        executeLedgerCommand(database.db, transfer('drain-source', `drain-target-${index}`, 100), settings),
      ),
    );

    expect(succeeded).toBe(15);
    expect(refused).toEqual(new Map([['insufficient_funds', 35]]));
    expect(await conTotal('drain-source')).toBe(0);
    expect(await conTotal('drain-target-')).toBe(15_00);
  });

  it('keeps the sum of 100 wallets through random transfers on 32 connections, with no deadlock reaching a caller', async () => {
    let funded = 0;
    for (let index = 0; index < 100; index++) funded += await fund(`ring-${index}`, 10_00);
    const random = (below: number) => Math.floor(Math.random() * below);

    const workers = Array.from({ length: 32 }, async () => {
      for (let round = 0; round < 25; round++) {
        const from = random(100);
        const to = (from + 1 + random(99)) % 100;
        await executeLedgerCommand(
          database.db,
          transfer(`ring-${from}`, `ring-${to}`, 1 + random(5_000)),
          settings,
        ).catch((error: unknown) => {
          if (!(error instanceof LedgerRuleViolation)) throw error;
        });
      }
    });
    await Promise.all(workers);

    expect(await conTotal('ring-')).toBe(funded);
    const { rows } = await sql<{
      count: number;
    }>`SELECT count(*)::int AS count FROM events WHERE type = 'FundsTransferred'`.execute(database.db);
    expect(rows[0]?.count).toBeGreaterThan(400);
  }, 60_000);

  it('keeps the sum of 40 wallets through random transfers from two processes at once, each deciding on the wallets it knows', async () => {
    const elsewhere = connectDatabase(database.url, { max: 16 });
    try {
      let funded = 0;
      for (let index = 0; index < 40; index++) funded += await fund(`pair-${index}`, 10_00);
      const random = (below: number) => Math.floor(Math.random() * below);
      let moved = 0;
      const workers = [database.db, elsewhere.db].flatMap((db) =>
        Array.from({ length: 16 }, async () => {
          for (let round = 0; round < 20; round++) {
            const from = random(40);
            const to = (from + 1 + random(39)) % 40;
            const amount = 1 + random(3_000);
            const outcome = await executeLedgerCommand(
              db,
              transfer(`pair-${from}`, `pair-${to}`, amount),
              settings,
            ).catch((error: unknown) => {
              if (!(error instanceof LedgerRuleViolation)) throw error;
              return null;
            });
            if (outcome) moved += amount;
          }
        }),
      );
      await Promise.all(workers);

      expect(await conTotal('pair-')).toBe(funded);
      // Every transfer answered as done is in the ledger, once.
      const { rows } = await sql<{ sent: number }>`
        SELECT coalesce(sum(amount), 0)::bigint AS sent FROM ledger_entries WHERE type = 'P2P_SENT' AND account_id LIKE 'wallet:pair-%'
      `.execute(database.db);
      expect(rows[0]?.sent).toBe(moved);
    } finally {
      await elsewhere.close();
    }
  }, 60_000);

  it('makes two processes paying among the same wallets and a hot one wait for each other under lock: no command fails, each key once', async () => {
    const pools = [connectDatabase(database.url, { max: 8 }), connectDatabase(database.url, { max: 8 })];
    const [one, two] = pools.map((pool) => pool.db) as [Kysely<Database>, Kysely<Database>];
    try {
      let funded = 0;
      for (let index = 0; index < 12; index++) funded += await fund(`shared-${index}`, 10_00);
      funded += await fund('shared-hot', 100_00);
      const before = [groupCommitContention(one), groupCommitContention(two)];

      // One process knows the hot wallet, the other moves it: the first one's next commit must meet the move.
      await executeLedgerCommand(one, transfer('shared-hot', 'shared-0', 1_00), settings);
      await executeLedgerCommand(two, transfer('shared-1', 'shared-hot', 1_00), settings);
      await executeLedgerCommand(one, transfer('shared-hot', 'shared-2', 1_00), settings);
      let moved = 3_00;

      const random = (below: number) => Math.floor(Math.random() * below);
      const party = () => (Math.random() < 0.3 ? 'shared-hot' : `shared-${random(12)}`);
      /** Every command sent, by transaction id, and how many times it was answered as done (not replayed). */
      const done = new Map<string, number>();
      const send = async (db: Kysely<Database>, command: LedgerCommand, amount: number) => {
        const outcome = await executeLedgerCommand(db, command, settings).catch((error: unknown) => {
          if (!(error instanceof LedgerRuleViolation)) throw error;
          return null;
        });
        if (outcome && !outcome.replayed) {
          done.set(command.txId, (done.get(command.txId) ?? 0) + 1);
          moved += amount;
        }
      };
      const workers = [one, two].flatMap((db, process) =>
        Array.from({ length: 12 }, async (_, caller) => {
          for (let round = 0; round < 20; round++) {
            const from = party();
            let to = party();
            while (to === from) to = party();
            const amount = 1 + random(2_000);
            const command = transfer(from, to, amount);
            // Now and then the same transaction sent to both processes at once, as a retry behind a load balancer.
            if (caller === 0 && round % 5 === 0)
              await Promise.all([send(db, command, amount), send(process ? one : two, command, amount)]);
            else await send(db, command, amount);
          }
        }),
      );
      await Promise.all(workers);

      expect(await conTotal('shared-')).toBe(funded);
      expect([...done.values()].every((count) => count === 1)).toBe(true);
      const { rows } = await sql<{ sent: number; streams: number; events: number }>`
        SELECT coalesce(sum(amount), 0)::bigint AS sent, count(DISTINCT tx_id)::int AS streams, count(*)::int AS events
        FROM ledger_entries WHERE type = 'P2P_SENT' AND account_id LIKE 'wallet:shared-%'
      `.execute(database.db);
      expect(rows[0]).toEqual({ sent: moved, streams: done.size + 3, events: done.size + 3 });
      // Both waited on the other's locks at some point rather than failing: the version check refused a commit, and the
      // batch was decided again under lock.
      const after = [groupCommitContention(one), groupCommitContention(two)];
      expect(after[0]?.conflicted).toBeGreaterThan(before[0]?.conflicted ?? 0);
      expect((after[0]?.locked ?? 0) + (after[1]?.locked ?? 0)).toBeGreaterThan(
        (before[0]?.locked ?? 0) + (before[1]?.locked ?? 0),
      );
    } finally {
      for (const pool of pools) await pool.close();
    }
  }, 60_000);

  it('refuses, whole, a commit decided against a wallet that has changed since it was read', async () => {
    await fund('stale-reader');
    const walletId = 'wallet:stale-reader:CON';
    const { rows } = await sql<{ version: number }>`SELECT version FROM wallets WHERE wallet_id = ${walletId}`.execute(
      database.db,
    );
    const read = (rows[0]?.version ?? 0) - 1;
    const events = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(database.db)).rows[0]?.n;
    const before = await events();

    const createdAt = new Date().toISOString();
    const batch = {
      events: [
        {
          stream_id: 'ledger-stale',
          version: 1,
          type: 'FundsTransferred',
          data: {},
          metadata: {},
          created_at: createdAt,
          prev_hash: GENESIS_HASH,
          hash: 'f'.repeat(64),
        },
      ],
      wallets: [],
      transactions_new: [{}],
      transactions_changed: [],
      entries: [],
      coins_created: [],
      coins_updated: [],
    };
    const error: unknown = await sql`
      SELECT * FROM ledger_commit(ARRAY[${walletId}], ARRAY[${read}]::bigint[], ${JSON.stringify(batch)}::jsonb)
    `
      .execute(database.db)
      .then(
        () => null,
        (caught: unknown) => caught,
      );

    expect((error as { code?: string } | null)?.code).toBe('40001');
    expect(await events()).toBe(before);
  });

  it('commits commands submitted together on different wallets in batches: fewer database transactions than commands', async () => {
    const owners = Array.from({ length: 16 }, (_, index) => `batch-${index}`);
    for (const owner of owners) await fund(owner);
    const commands = [0, 2, 4, 6, 8, 10, 12, 14].map((index) =>
      transfer(owners[index] ?? '', owners[index + 1] ?? '', 100),
    );
    const outcomes = await Promise.all(commands.map((command) => executeLedgerCommand(database.db, command, settings)));

    const transactions = new Set(outcomes.flatMap((outcome) => outcome.events.map((event) => event.transactionId)));
    expect(outcomes.every((outcome) => !outcome.replayed)).toBe(true);
    // Shared over the two batches that commit side by side, four commands each.
    expect(transactions.size).toBe(2);
  });

  it('decides commands on one wallet in one batch in turn: a payment received is paid on in the same database transaction', async () => {
    const funded = await fund('chain-a');
    for (const owner of ['chain-b', 'chain-c']) await openWallets(database.db, owner, { currencies: ['CON'] });
    // Three submitted together: the first two make one batch, the third the other batch in flight (see #pump).
    const [first, second] = await Promise.all([
      executeLedgerCommand(database.db, transfer('chain-a', 'chain-b', 50_00), settings),
      // chain-b holds nothing until the payment above: decided alone, before it commits, this would be refused.
      executeLedgerCommand(database.db, transfer('chain-b', 'chain-c', 30_00), settings),
      executeLedgerCommand(database.db, transfer('chain-a', 'chain-c', 1_00), settings),
    ]);

    expect(second.events[0]?.transactionId).toBe(first.events[0]?.transactionId);
    expect(second.events[0]?.position).toBeGreaterThan(first.events[0]?.position ?? Infinity);
    expect(await conTotal('chain-a')).toBe(funded - 51_00);
    expect(await conTotal('chain-b')).toBe(20_00);
    expect(await conTotal('chain-c')).toBe(31_00);
    const { rows } = await sql<{
      value: number;
    }>`SELECT value FROM coins WHERE holder = 'wallet:chain-b:CON' AND status = 'held'`.execute(database.db);
    expect(rows.map((coin) => coin.value)).toEqual([20_00]);
  });

  it('decides on what another process left, whichever way its change went', async () => {
    const elsewhere = connectDatabase(database.url, { max: 2 });
    try {
      await fund('known-a', 1_00);
      for (const owner of ['known-b', 'known-c']) await openWallets(database.db, owner, { currencies: ['CON'] });
      await executeLedgerCommand(database.db, transfer('known-a', 'known-b', 1_00), settings);
      // known-a holds 14.00 after this process's payment; the other spends all but 1.00 of it.
      await executeLedgerCommand(elsewhere.db, transfer('known-a', 'known-c', 13_00), settings);

      const overdraw = await executeLedgerCommand(database.db, transfer('known-a', 'known-b', 2_00), settings).catch(
        (error: unknown) => error,
      );
      expect(overdraw).toBeInstanceOf(LedgerRuleViolation);
      expect((overdraw as LedgerRuleViolation).code).toBe('insufficient_funds');

      // Refilled elsewhere: a payment of 10.00 goes through.
      await executeLedgerCommand(
        elsewhere.db,
        {
          type: 'PurchaseCoins',
          txId: txId('purchase'),
          ownerId: 'known-a',
          charge: { amount: 1_00, currency: 'USD' },
          rateMicros: DEFAULT_RATE_MICROS,
          paymentMethod: { id: 'pm', type: 'CC' },
        },
        settings,
      );
      await executeLedgerCommand(database.db, transfer('known-a', 'known-b', 10_00), settings);

      expect(await conTotal('known-a')).toBe(6_00);
      expect(await conTotal('known-b')).toBe(11_00);
      expect(await conTotal('known-c')).toBe(13_00);
    } finally {
      await elsewhere.close();
    }
  });

  it('decides on wallets it knows from its last batch without reading them, until another process moves them, then reads them', async () => {
    const elsewhere = connectDatabase(database.url, { max: 2 });
    try {
      await fund('remembered-a', 1_00);
      await openWallets(database.db, 'remembered-b', { currencies: ['CON'] });
      await executeLedgerCommand(database.db, transfer('remembered-a', 'remembered-b', 1_00), settings);

      const known = groupCommitCounts(database.db);
      await executeLedgerCommand(database.db, transfer('remembered-a', 'remembered-b', 1_00), settings);
      expect(groupCommitCounts(database.db)).toEqual({ batches: known.batches + 1, read: known.read });

      await executeLedgerCommand(elsewhere.db, transfer('remembered-a', 'remembered-b', 5_00), settings);
      const stale = groupCommitCounts(database.db);
      const staleContention = groupCommitContention(database.db);
      await executeLedgerCommand(database.db, transfer('remembered-a', 'remembered-b', 1_00), settings);
      // Decided on what it knew, refused by the commit's version check, then read under lock and decided again, in the same batch.
      expect(groupCommitCounts(database.db)).toEqual({ batches: stale.batches + 1, read: stale.read + 1 });
      expect(groupCommitContention(database.db)).toEqual({
        conflicted: staleContention.conflicted + 1,
        locked: staleContention.locked + 1,
      });

      // Moved elsewhere, the wallets are read for every batch from then on, under lock while lately contended: taking turns
      // with the other process fails no commit.
      await executeLedgerCommand(elsewhere.db, transfer('remembered-a', 'remembered-b', 1_00), settings);
      const turns = groupCommitCounts(database.db);
      await executeLedgerCommand(database.db, transfer('remembered-a', 'remembered-b', 1_00), settings);
      expect(groupCommitCounts(database.db)).toEqual({ batches: turns.batches + 1, read: turns.read + 1 });
      expect(groupCommitContention(database.db)).toEqual({
        conflicted: staleContention.conflicted + 1,
        locked: staleContention.locked + 2,
      });

      expect(await conTotal('remembered-a')).toBe(15_00 - 10_00);
      expect(await conTotal('remembered-b')).toBe(10_00);
    } finally {
      await elsewhere.close();
    }
  });

  it("following the commits' announcements, reads a wallet another process moved once, before deciding on it, and heeds not its own", async () => {
    const here = connectDatabase(database.url, { max: 2 });
    const listener = new pg.Client({ connectionString: database.url });
    const follower = walletChangeFollower(here.db);
    let heard = 0;
    listener.on('notification', ({ payload }) => {
      heard += 1;
      follower.notified(payload);
    });
    /** Runs `move`, then waits until its commit's announcement has reached this process. */
    const announced = async (move: () => Promise<unknown>) => {
      const before = heard;
      await move();
      for (let wait = 0; heard === before; wait++) {
        if (wait > 200) throw new Error('no announcement within 2 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      await listener.connect();
      await listener.query(`LISTEN ${WALLET_CHANGES_CHANNEL}`);
      follower.resumed();
      await fund('announced-a', 1_00);
      await openWallets(database.db, 'announced-b', { currencies: ['CON'] });
      await announced(() => executeLedgerCommand(here.db, transfer('announced-a', 'announced-b', 1_00), settings));

      // Its own commit announced, the wallets stay known: no read.
      const known = groupCommitCounts(here.db);
      await announced(() => executeLedgerCommand(here.db, transfer('announced-a', 'announced-b', 1_00), settings));
      expect(groupCommitCounts(here.db)).toEqual({ batches: known.batches + 1, read: known.read });

      // Moved elsewhere and announced: read once before the batch, which commits at the first attempt.
      await announced(() => executeLedgerCommand(database.db, transfer('announced-a', 'announced-b', 5_00), settings));
      const moved = groupCommitCounts(here.db);
      await announced(() => executeLedgerCommand(here.db, transfer('announced-a', 'announced-b', 1_00), settings));
      expect(groupCommitCounts(here.db)).toEqual({ batches: moved.batches + 1, read: moved.read + 1 });
      // Not read again for a minute, as without announcements: the next batch decides on what it knows.
      await announced(() => executeLedgerCommand(here.db, transfer('announced-a', 'announced-b', 1_00), settings));
      expect(groupCommitCounts(here.db)).toEqual({ batches: moved.batches + 2, read: moved.read + 1 });

      // With the announcements lost, what it knew is forgotten.
      follower.lost();
      await executeLedgerCommand(here.db, transfer('announced-a', 'announced-b', 1_00), settings);
      expect(groupCommitCounts(here.db)).toEqual({ batches: moved.batches + 3, read: moved.read + 2 });

      expect(await conTotal('announced-a')).toBe(15_00 - 10_00);
      expect(await conTotal('announced-b')).toBe(10_00);
    } finally {
      await listener.end();
      await here.close();
    }
  });

  it('takes smaller batches after colliding with another process, and larger ones again as batches commit', async () => {
    const here = connectDatabase(database.url, { max: 4 });
    const elsewhere = connectDatabase(database.url, { max: 2 });
    try {
      const payers = Array.from({ length: 32 }, (_, index) => `halving-${index}`);
      for (const payer of payers) await fund(payer);
      for (const index of payers.keys()) await openWallets(database.db, `halving-to-${index}`, { currencies: ['CON'] });
      /** Batches `here` takes for 32 payments on different wallets, submitted together. */
      const batchesFor32 = async () => {
        const before = groupCommitCounts(here.db).batches;
        await Promise.all(
          payers.map((payer, index) =>
            executeLedgerCommand(here.db, transfer(payer, `halving-to-${index}`, 1_00), settings),
          ),
        );
        return groupCommitCounts(here.db).batches - before;
      };

      // Two batches of 16 side by side.
      expect(await batchesFor32()).toBe(2);
      // Another process moves a wallet `here` knows: its next commit collides, and its batches are halved.
      await executeLedgerCommand(elsewhere.db, transfer('halving-0', 'halving-to-0', 1_00), settings);
      await executeLedgerCommand(here.db, transfer('halving-0', 'halving-to-0', 1_00), settings);
      expect(await batchesFor32()).toBeGreaterThan(2);
      // Each batch committed adds one: back to two batches of 16.
      for (let round = 0; round < 3; round++) await batchesFor32();
      expect(await batchesFor32()).toBe(2);
    } finally {
      await elsewhere.close();
      await here.close();
    }
  });

  it('leaves a command its batch cannot decide on the coins read to the next batch, which reads again', async () => {
    for (let purchase = 0; purchase < 20; purchase++) await fund('hoarder', 1_00);
    for (const owner of ['hoard-payee', 'hoard-bystander']) await fund(owner);
    // 20 coins of 15.00: the batch reads the first 16, which cover 14.00 + 225.00. Paying 14.00 splits a coin, and its
    // change of 1.00 ranks after the coins left unread, so it is not known: 15 coins (225.00) cannot be said to cover 226.00.
    const [small, large] = await Promise.all([
      executeLedgerCommand(database.db, transfer('hoarder', 'hoard-payee', 14_00), settings),
      executeLedgerCommand(database.db, transfer('hoarder', 'hoard-payee', 226_00), settings),
      executeLedgerCommand(database.db, transfer('hoard-bystander', 'hoard-payee', 1_00), settings),
    ]);

    expect(large.events[0]?.transactionId).not.toBe(small.events[0]?.transactionId);
    expect(await conTotal('hoard-payee')).toBe(7_800_00 + 241_00);
    expect(await conTotal('hoard-bystander')).toBe(7_800_00 - 1_00);
    expect(await conTotal('hoarder')).toBe(20 * 15_00 - 240_00);
  });

  it('runs a batch holding a retry of an existing transaction command by command: the retry replays, the others commit', async () => {
    for (const owner of ['retry-a', 'retry-b', 'retry-c', 'retry-d']) await fund(owner);
    const first = transfer('retry-a', 'retry-b', 100);
    await executeLedgerCommand(database.db, first, settings);
    const [again, other] = await Promise.all([
      executeLedgerCommand(database.db, first, settings),
      executeLedgerCommand(database.db, transfer('retry-c', 'retry-d', 100), settings),
    ]);
    expect(again.replayed).toBe(true);
    expect(other.replayed).toBe(false);
    expect(await conTotal('retry-')).toBe(4 * 7_800_00);
    const { rows } = await sql<{
      total: number;
    }>`SELECT total FROM wallets WHERE wallet_id = 'wallet:retry-a:CON'`.execute(database.db);
    expect(rows[0]?.total).toBe(7_800_00 - 100);
  });

  it('applies a command retried concurrently with the same idempotency key once', async () => {
    await fund('retry-source');
    await openWallets(database.db, 'retry-target', { currencies: ['CON'] });
    const body = { guser_id: 'retry-target', amount: 12_34, currency: 'CON' };
    const request = {
      scope: 'user:retry-source',
      key: 'send-1',
      fingerprint: fingerprintRequest({ method: 'POST', path: '/api/account/send-fund', body }),
    };
    const command = transfer('retry-source', 'retry-target', body.amount);

    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        runIdempotently(database.db, request, async (trx) => {
          const { record } = await executeLedgerCommand(trx, command, settings);
          return { statusCode: 200, body: { txId: record.txId, amount: record.amount } };
        }),
      ),
    );

    expect(responses.filter((response) => !response.replayed)).toHaveLength(1);
    expect(new Set(responses.map((response) => JSON.stringify(response.body))).size).toBe(1);
    expect(await conTotal('retry-target')).toBe(12_34);
  });

  it('applies the same transaction id sent concurrently once, even without an idempotency key', async () => {
    await fund('twice-source');
    await openWallets(database.db, 'twice-target', { currencies: ['CON'] });
    const command = transfer('twice-source', 'twice-target', 7_00);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => executeLedgerCommand(database.db, command, settings)),
    );
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await conTotal('twice-target')).toBe(7_00);
  });

  it('keeps a concurrent copy of a transaction out of the batch of the first, which commits with the others', async () => {
    for (const owner of ['copy-a', 'copy-b', 'copy-c', 'copy-d']) await fund(owner);
    const command = transfer('copy-a', 'copy-b', 3_00);
    const [first, copy, other] = await Promise.all([
      executeLedgerCommand(database.db, command, settings),
      executeLedgerCommand(database.db, command, settings),
      executeLedgerCommand(database.db, transfer('copy-c', 'copy-d', 1_00), settings),
    ]);
    expect(first.replayed).toBe(false);
    expect(copy.replayed).toBe(true);
    expect(other.events[0]?.transactionId).toBe(first.events[0]?.transactionId);
    expect(await conTotal('copy-b')).toBe(7_800_00 + 3_00);
  });

  it('does not refuse a payment for money that a retry beside it in the batch only seemed to take', async () => {
    await fund('retried-payer', 2_00);
    for (const owner of ['retried-payee', 'retried-other']) await fund(owner);
    const first = transfer('retried-payer', 'retried-payee', 15_00);
    await executeLedgerCommand(database.db, first, settings);
    // 16.00 left (2.00 USD bought 31.00). The retry of `first` and the new payment of 15.00 make one batch (the third goes to the other):
    // decided in turn, the retry looks like it takes the 15.00, and the payment would be refused for it.
    const [retry, payment] = await Promise.all([
      executeLedgerCommand(database.db, first, settings),
      executeLedgerCommand(database.db, transfer('retried-payer', 'retried-other', 15_00), settings),
      executeLedgerCommand(database.db, transfer('retried-other', 'retried-payee', 1_00), settings),
    ]);
    expect(retry.replayed).toBe(true);
    expect(payment.replayed).toBe(false);
    expect(await conTotal('retried-payer')).toBe(1_00);
  });

  it('leaves a ledger that verifies after all of the above', async () => {
    await catchUp(database.db, platformBalances);
    const report = await verifyLedger(database.db);
    expect(report.invariantFailures).toEqual([]);
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
