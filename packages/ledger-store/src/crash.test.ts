import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { DEFAULT_RATE_MICROS } from '@peeks/ledger';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLedgerCommand } from './execute.ts';
import { verifyLedger } from './verify.ts';
import { openWallets } from './wallets.ts';

/**
 * The ledger's crash test: a child process runs a stream of transfers,
 * withdrawals, sales and returns on eight connections and is SIGKILLed in the middle of it.
 * Whatever was in flight either committed whole or not at all, so the log
 * and the read models projected beside it must still pass `ledger:verify`,
 * and no money may have appeared or vanished. Then the same again, to show
 * the ledger carries on after a crash.
 */
const CHILD = path.join(import.meta.dirname, 'testing', 'transfer-stream.ts');
const CHILD_NAME = 'peeks-crash-transfer-stream';
const OWNERS = 20;
/** About one commit in six is a withdrawal's: 150 commits hold well over 100 transfers. */
const COMMITS_BEFORE_KILL = 150;
const TRANSFERS_AT_LEAST = 100;

let database: TestDatabase;
/** CON minor units bought at setup. */
let purchased = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  for (let index = 0; index < OWNERS; index += 1) {
    const ownerId = `crash-${index}`;
    await openWallets(database.db, ownerId, { currencies: ['CON'] });
    const { record } = await executeLedgerCommand(
      database.db,
      {
        type: 'PurchaseCoins',
        txId: randomUUID(),
        ownerId,
        charge: { amount: 500_00, currency: 'USD' },
        rateMicros: DEFAULT_RATE_MICROS,
        paymentMethod: { id: 'test', type: 'CC' },
      },
      { holdHours: 24 },
    );
    purchased += record.amount;
  }
  await openWallets(database.db, 'crash-merchant', { currencies: ['CON'] });
});
afterAll(() => database.drop());

/** Runs the child until it has reported `commits` commits, then SIGKILLs it; resolves with what it had reported. */
async function streamAndKill(commits: number): Promise<number> {
  const child = spawn(process.execPath, [CHILD, String(OWNERS)], {
    env: { ...process.env, DATABASE_URL: database.url },
    // stdin piped: the child ends when it closes, should this test die first.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let reported = 0;
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve(signal ?? code);
    });
  });
  const enough = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        const count = /^committed (\d+)$/.exec(line)?.[1];
        if (count !== undefined) reported = Math.max(reported, Number(count));
      }
      if (reported >= commits) resolve();
    });
    void exited.then((how) => {
      reject(new Error(`the transfer stream stopped by itself (${String(how)}) after ${reported} commits:\n${stderr}`));
    });
    setTimeout(() => {
      reject(new Error(`the transfer stream reported only ${reported} commits in 20 s:\n${stderr}`));
    }, 20_000).unref();
  });
  try {
    await enough;
    await childSessions('in a transaction');
    expect(child.kill('SIGKILL')).toBe(true);
    expect(await exited).toBe('SIGKILL');
  } finally {
    child.kill('SIGKILL');
  }
  await childSessions('gone');
  return reported;
}

/**
 * Waits until the child has a session in a transaction (so the kill cuts
 * work in flight), or none left at all: the server notices a dead client
 * only when it next talks to it, and until then what it was doing may
 * still commit.
 */
async function childSessions(until: 'in a transaction' | 'gone'): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await sql<{ open: number; inTransaction: number }>`
      SELECT count(*)::int AS open, (count(*) FILTER (WHERE xact_start IS NOT NULL))::int AS "inTransaction"
      FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${CHILD_NAME}
    `.execute(database.db);
    const sessions = rows[0] ?? { open: 0, inTransaction: 0 };
    if (until === 'gone' ? sessions.open === 0 : sessions.inTransaction > 0) return;
    if (Date.now() > deadline)
      throw new Error(`the transfer stream's sessions are not ${until} after 10 s: ${JSON.stringify(sessions)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function eventCount(type: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM events WHERE type = ${type}`.execute(
    database.db,
  );
  return rows[0]?.count ?? 0;
}

/** CON in wallets, fees taken and withdrawals paid out: together, all that was bought. */
async function whereTheMoneyIs() {
  const { rows } = await sql<{ inWallets: number; fees: number; withdrawn: number }>`
    SELECT
      (SELECT coalesce(sum(total), 0)::bigint FROM wallets WHERE currency = 'CON') AS "inWallets",
      (SELECT coalesce(sum((data->>'fee')::bigint), 0)::bigint FROM events WHERE type = 'FundsTransferred') AS fees,
      (SELECT coalesce(sum((data->>'amount')::bigint), 0)::bigint FROM events WHERE type = 'WithdrawalProcessed') AS withdrawn
  `.execute(database.db);
  const [money] = rows;
  if (!money) throw new Error('no row');
  return money;
}

async function expectLedgerIntact(): Promise<void> {
  const report = await verifyLedger(database.db);
  expect(report).toMatchObject({ ok: true, differences: [], invariantFailures: [] });
  expect(report.chains.breaks).toEqual([]);
  const money = await whereTheMoneyIs();
  expect(money.inWallets + money.fees + money.withdrawn).toBe(purchased);
  // Each sale's returns, as the log holds them, within the sale and equal to what its row says was returned.
  const { rows: sales } = await sql<{ txId: string; amount: number; returned: number; inLog: number }>`
    SELECT s.tx_id AS "txId", s.amount, s.returned_amount AS returned,
      (SELECT coalesce(sum((e.data->>'amount')::bigint), 0)::bigint FROM events e
        WHERE e.type = 'SaleReturned' AND e.data->>'saleTxId' = s.tx_id) AS "inLog"
    FROM ledger_transactions s WHERE s.type = 'sale'
  `.execute(database.db);
  expect(sales.length).toBeGreaterThan(0);
  expect(sales.filter((sale) => sale.returned > sale.amount || sale.returned !== sale.inLog)).toEqual([]);
}

describe('the ledger killed mid-stream', () => {
  it('verifies after a SIGKILL, carries on, and verifies after a second one', { timeout: 60_000 }, async () => {
    expect(purchased).toBe(OWNERS * 780_000);

    expect(await streamAndKill(COMMITS_BEFORE_KILL)).toBeGreaterThanOrEqual(COMMITS_BEFORE_KILL);
    await expectLedgerIntact();
    const transfersAfterFirst = await eventCount('FundsTransferred');
    expect(transfersAfterFirst).toBeGreaterThanOrEqual(TRANSFERS_AT_LEAST);
    expect(await eventCount('SaleReturned')).toBeGreaterThan(0);

    await streamAndKill(COMMITS_BEFORE_KILL);
    await expectLedgerIntact();
    expect(await eventCount('FundsTransferred')).toBeGreaterThanOrEqual(transfersAfterFirst + TRANSFERS_AT_LEAST);
  });
});
