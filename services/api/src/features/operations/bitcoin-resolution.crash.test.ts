import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { flaggedBitcoinDeposit, type FlaggedBitcoinDeposit } from '../../testing/operations.ts';
import { coinsForSats, creditTransactionId } from './bitcoin-resolution.ts';

/**
 * Operators' resolutions of flagged bitcoin deposits when the process doing
 * them is SIGKILLed: a child resolves forty deposits, four at a time, and
 * is killed after a few. Each deposit must be resolved whole (the credit's
 * ledger transaction, the deposit's own closed, the decision's event, the
 * row) or not at all; a second child then resolves the rest, and the coins
 * credited are exactly those of the credited deposits, once each.
 */
const CHILD = path.join(import.meta.dirname, 'testing', 'resolve-stream.ts');
const CHILD_NAME = 'peeks-crash-resolve-stream';
const DEPOSITS = 40;

let subject: TestApp;
let ann: SignedIn;
let deposits: FlaggedBitcoinDeposit[];
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  ann = await signedUp(subject, 'personal');
  deposits = [];
  for (let index = 0; index < DEPOSITS; index++)
    deposits.push(
      await flaggedBitcoinDeposit(subject, ann.user.user_id, { flag: 'underpaid', confirmedSats: 10_000 + index }),
    );
}, 120_000);
afterAll(() => subject.close());

/** Runs the child on the deposits until it reports `count` resolutions (or is done), then SIGKILLs it. */
async function resolveAndKill(ids: string[], count: number): Promise<void> {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, DATABASE_URL: subject.database.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let resolved = 0;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((done) => {
    child.on('exit', (code, signal) => {
      done(signal ?? code);
    });
  });
  const enough = new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line.startsWith('resolved ')) resolved += 1;
        if (line === 'done' || resolved >= count) done();
      }
    });
    void exited.then((how) => {
      fail(new Error(`the resolving child stopped by itself (${String(how)}) after ${resolved}:\n${stderr}`));
    });
    setTimeout(() => {
      fail(new Error(`the resolving child resolved only ${resolved} in 60 s:\n${stderr}`));
    }, 60_000).unref();
  });
  child.stdin.write(`${ids.join(' ')}\n`);
  try {
    await enough;
    child.kill('SIGKILL');
    await exited;
  } finally {
    child.kill('SIGKILL');
  }
  await childGone();
}

/** The server notices a dead client only when it next talks to it: wait until its sessions are gone. */
async function childGone(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await sql<{ open: number }>`
      SELECT count(*)::int AS open FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${CHILD_NAME}
    `.execute(subject.database.db);
    if ((rows[0]?.open ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error('the resolving child still has sessions after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Per deposit: which of the resolution's four writes are there. */
async function resolutionParts() {
  const { rows } = await sql<{
    tx_id: string;
    resolution: string | null;
    credited: boolean;
    closed: boolean;
    decided: number;
  }>`
    SELECT d.tx_id, d.resolution,
      EXISTS (SELECT 1 FROM ledger_transactions c WHERE c.tx_id = d.tx_id || '-credit') AS credited,
      (SELECT t.state FROM ledger_transactions t WHERE t.tx_id = d.tx_id) = 'rejected' AS closed,
      (SELECT count(*)::int FROM events e WHERE e.stream_id = 'bitcoin-deposit-' || d.tx_id) AS decided
    FROM bitcoin_deposits d WHERE d.tx_id = ANY(${deposits.map((deposit) => deposit.txId)}::text[])
  `.execute(subject.database.db);
  return rows;
}

describe('resolving flagged bitcoin deposits when the process is killed', () => {
  it('leaves each deposit resolved whole or not at all, and a second run resolves the rest once', async () => {
    const ids = deposits.map((deposit) => deposit.txId);
    await resolveAndKill(ids, 6);

    const afterKill = await resolutionParts();
    const done = afterKill.filter((row) => row.resolution !== null);
    expect(done.length).toBeGreaterThanOrEqual(6);
    expect(done.length).toBeLessThan(DEPOSITS);
    for (const row of afterKill) {
      const whole = row.resolution !== null;
      expect(row.decided, row.tx_id).toBe(whole ? 1 : 0);
      expect(row.closed, row.tx_id).toBe(whole);
      expect(row.credited, row.tx_id).toBe(row.resolution === 'credited');
    }
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });

    await resolveAndKill(
      afterKill.filter((row) => row.resolution === null).map((row) => row.tx_id),
      DEPOSITS,
    );
    const final = await resolutionParts();
    expect(final.every((row) => row.resolution !== null && row.decided === 1 && row.closed)).toBe(true);
    const creditedCoins = deposits
      .map((deposit, index) => ({ deposit, sats: 10_000 + index }))
      .filter(({ deposit }) => final.find((row) => row.tx_id === deposit.txId)?.resolution === 'credited')
      .reduce(
        (sum, { deposit, sats }) => sum + coinsForSats({ coins: deposit.coins, amount_sats: deposit.amountSats }, sats),
        0,
      );
    expect(creditedCoins).toBeGreaterThan(0);
    const wallet = (await walletsOf(subject.database.db, deposits[0]?.ownerId ?? '')).find(
      (each) => each.currency === 'CON',
    );
    expect(wallet?.total).toBe(creditedCoins);
    const credits = await subject.database.db
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('tx_id', 'in', ids.map(creditTransactionId))
      .executeTakeFirstOrThrow();
    expect(credits.count).toBe(final.filter((row) => row.resolution === 'credited').length);
    expect(await verifyLedger(subject.database.db)).toMatchObject({ ok: true });
  }, 180_000);
});
