import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, verifyLedger, walletsOf, type LedgerSettings } from '@peeks/ledger-store';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobQueue } from '@peeks/jobs';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process.ts';

const WITHDRAWALS = 60;
const AMOUNT = 1_00;
let database: TestDatabase;
let closeQueue: () => Promise<void>;
let worker: WorkerProcess | undefined;
let owner: string;

/**
 * Sixty withdrawals to a card, each with its payout job; a worker process
 * is SIGKILLed while it pays them out and another is started. Every
 * withdrawal must end paid out once and recorded once.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  const queue = await openJobQueue(database.url, createLogger({ LOG_LEVEL: 'silent' }));
  closeQueue = queue.close;
  const settings: LedgerSettings = { holdHours: 24, jobs: queue.jobs };
  const user = await database.db
    .insertInto('users')
    .values({
      username: 'crash_payout',
      email: 'crash@example.com',
      password_hash: 'x',
      user_type: 'personal',
      perms: [],
      birthday: '1990-01-01',
      country: 'CA',
      currency: 'USD',
      terms_accepted: true,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  owner = userOwnerId(user.user_id);
  const token = `424242${randomUUID().replaceAll('-', '').slice(0, 16)}4242`;
  await database.db
    .insertInto('sandbox_cards')
    .values({
      token,
      card_number: '4242424242424242',
      brand: 'visa',
      mask: '************4242',
      expiry_month: 8,
      expiry_year: 2030,
      created_at: new Date(),
    })
    .execute();
  const method = await database.db
    .insertInto('payment_methods')
    .values({
      user_id: user.user_id,
      type: 'CC',
      state: 'E',
      validated: 'V',
      is_default: true,
      fingerprint: `CC:${token}`,
      billing_address: '{}',
      shipping_address: null,
      type_specific: JSON.stringify({ token, token_type: 'sandbox' }),
      entry_date: new Date(),
      updated_at: new Date(),
    })
    .returning('payment_method_id')
    .executeTakeFirstOrThrow();
  await openWallets(database.db, owner, { currencies: ['USD'] });
  await executeLedgerCommand(
    database.db,
    {
      type: 'CorrectBalance',
      txId: randomUUID(),
      ownerId: owner,
      amount: WITHDRAWALS * AMOUNT,
      currency: 'USD',
      reason: 'test funds',
      operatorId: 'test',
    },
    settings,
  );
  await Promise.all(
    Array.from({ length: WITHDRAWALS }, () =>
      executeLedgerCommand(
        database.db,
        {
          type: 'RequestWithdrawal',
          txId: randomUUID(),
          ownerId: owner,
          amount: AMOUNT,
          currency: 'USD',
          destination: { kind: 'card', paymentMethodId: String(method.payment_method_id) },
        },
        settings,
      ),
    ),
  );
});
afterAll(async () => {
  await worker?.kill();
  await closeQueue();
  await database.drop();
});

/** Withdrawals recorded as paid out, payouts the provider made, and recorded ones whose reference is not their key's payout. */
async function progress(): Promise<{ processed: number; payouts: number; mismatched: number }> {
  const { rows } = await sql<{ processed: number; payouts: number; mismatched: number }>`
    SELECT
      (SELECT count(*)::int FROM events WHERE type = 'WithdrawalProcessed') AS processed,
      (SELECT count(*)::int FROM sandbox_payouts) AS payouts,
      (SELECT count(*)::int FROM ledger_transactions tx LEFT JOIN sandbox_payouts p ON p.idempotency_key = 'withdrawal-' || tx.tx_id
        WHERE tx.type = 'withdraw' AND tx.state = 'completed' AND tx.reference IS DISTINCT FROM p.payout_id) AS mismatched
  `.execute(database.db);
  return rows[0] ?? { processed: 0, payouts: 0, mismatched: 0 };
}

describe('withdrawal payouts when the worker is killed', () => {
  it('pays every withdrawal out once and records it once across a SIGKILL and a restart', async () => {
    worker = await startWorkerProcess({ databaseUrl: database.url });
    await expect.poll(async () => (await progress()).payouts, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    expect((await progress()).processed).toBeLessThan(WITHDRAWALS);

    worker = await startWorkerProcess({ databaseUrl: database.url });
    await expect
      .poll(progress, { timeout: 60_000, interval: 250 })
      .toEqual({ processed: WITHDRAWALS, payouts: WITHDRAWALS, mismatched: 0 });
    const wallet = (await walletsOf(database.db, owner)).find((each) => each.currency === 'USD');
    expect(wallet).toMatchObject({ total: 0, available: 0, reserved: 0 });
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true });
  }, 150_000);
});
