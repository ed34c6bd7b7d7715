import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { userOwnerId } from '@peeks/ledger';
import {
  executeLedgerCommand,
  loadTransaction,
  openWallets,
  verifyLedger,
  walletsOf,
  type LedgerSettings,
} from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../index.ts';
import { sandboxPayouts } from './payout-provider.ts';
import { FAILING_PAYOUT_CARD, startSandboxPayoutServer } from './sandbox-payout-server.ts';
import { WITHDRAWAL_PAYOUT_QUEUE } from '@peeks/jobs';
import { payOutWithdrawal, payoutKeyOf } from './withdrawal-payout.ts';

const FAILING_ACCOUNT = '111222333';
let database: TestDatabase;
let workers: Workers;
let settings: LedgerSettings;
let userId: number;
const log = createLogger({ LOG_LEVEL: 'silent' });

/** A user with 1,000.00 USD of their own money (withdrawable at once). */
beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    log,
    config: readConfig({ PAYOUT_SANDBOX_FAIL_ACCOUNT: FAILING_ACCOUNT }),
  });
  settings = { holdHours: 24, jobs: workers.jobs };
  const user = await database.db
    .insertInto('users')
    .values({
      username: 'payout_user',
      email: 'payout@example.com',
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
  userId = user.user_id;
  await openWallets(database.db, owner(), { currencies: ['USD'] });
  await executeLedgerCommand(
    database.db,
    {
      type: 'CorrectBalance',
      txId: randomUUID(),
      ownerId: owner(),
      amount: 1_000_00,
      currency: 'USD',
      reason: 'test funds',
      operatorId: 'test',
    },
    settings,
  );
});
afterAll(async () => {
  await workers.stop();
  await database.drop();
});

const owner = () => userOwnerId(userId);
const wallet = async () => (await walletsOf(database.db, owner())).find((each) => each.currency === 'USD');

/** A stored card, as the card processor's tokenizer and the payment-methods API leave it. */
async function card(number: string): Promise<string> {
  const token = `${number.slice(0, 6)}${randomUUID().replaceAll('-', '').slice(0, 16)}${number.slice(-4)}`;
  await database.db
    .insertInto('sandbox_cards')
    .values({
      token,
      card_number: number,
      brand: 'visa',
      mask: `************${number.slice(-4)}`,
      expiry_month: 8,
      expiry_year: 2030,
      created_at: new Date(),
    })
    .execute();
  return method('CC', { token, token_type: 'sandbox' }, `CC:${token}`);
}

async function bankAccount(accountNo: string): Promise<string> {
  return method(
    'CHQ',
    { account_no: accountNo, transit_no: '12345', institution_no: '003' },
    `CHQ:CA:${accountNo}:${randomUUID()}`,
  );
}

async function method(type: 'CC' | 'CHQ', typeSpecific: Record<string, unknown>, fingerprint: string): Promise<string> {
  const row = await database.db
    .insertInto('payment_methods')
    .values({
      user_id: userId,
      type,
      state: 'E',
      validated: 'V',
      is_default: false,
      fingerprint,
      billing_address: '{}',
      shipping_address: null,
      type_specific: JSON.stringify(typeSpecific),
      entry_date: new Date(),
      updated_at: new Date(),
    })
    .returning('payment_method_id')
    .executeTakeFirstOrThrow();
  return String(row.payment_method_id);
}

/** What POST /api/account/withdraw does: reserve the money, which enqueues the payout job in the same transaction. */
async function requestWithdrawal(
  paymentMethodId: string,
  kind: 'card' | 'bank',
  amount: number,
  ledgerSettings = settings,
): Promise<string> {
  const txId = randomUUID();
  await executeLedgerCommand(
    database.db,
    {
      type: 'RequestWithdrawal',
      txId,
      ownerId: owner(),
      amount,
      currency: 'USD',
      destination: { kind, paymentMethodId },
    },
    ledgerSettings,
  );
  return txId;
}

const payouts = async (txId: string) =>
  await database.db
    .selectFrom('sandbox_payouts')
    .select(['payout_id', 'status', 'amount'])
    .where('idempotency_key', '=', payoutKeyOf(txId))
    .execute();

const settled = (txId: string) =>
  expect.poll(async () => (await loadTransaction(database.db, txId))?.state, { timeout: 15_000, interval: 100 });

describe('withdrawal payouts', () => {
  it('pays a withdrawal out to a card and burns the reserved money', async () => {
    const before = await wallet();
    const txId = await requestWithdrawal(await card('4242424242424242'), 'card', 100_00);
    await settled(txId).toBe('completed');
    const [payout] = await payouts(txId);
    expect(payout).toMatchObject({ status: 'paid', amount: 100_00 });
    expect((await loadTransaction(database.db, txId))?.reference).toBe(payout?.payout_id);
    expect(await wallet()).toMatchObject({
      total: (before?.total ?? 0) - 100_00,
      available: (before?.available ?? 0) - 100_00,
      reserved: 0,
    });
  });

  it('fails a payout to the declined test card and gives the reserved money back', async () => {
    const before = await wallet();
    const txId = await requestWithdrawal(await card(FAILING_PAYOUT_CARD), 'card', 50_00);
    await settled(txId).toBe('failed');
    expect(await payouts(txId)).toMatchObject([{ status: 'failed' }]);
    expect((await loadTransaction(database.db, txId))?.reason).toBe('The card does not accept payouts');
    expect(await wallet()).toEqual(before);
  });

  it('pays bank accounts, except the configured failing one', async () => {
    const before = await wallet();
    const paid = await requestWithdrawal(await bankAccount('987654321'), 'bank', 20_00);
    const refused = await requestWithdrawal(await bankAccount(FAILING_ACCOUNT), 'bank', 30_00);
    await settled(paid).toBe('completed');
    await settled(refused).toBe('failed');
    expect(await wallet()).toMatchObject({
      total: (before?.total ?? 0) - 20_00,
      available: (before?.available ?? 0) - 20_00,
      reserved: 0,
    });
  });

  it('pays once when the job died after the payout and before the ledger, and runs again', async () => {
    const before = await wallet();
    const method = await card('4242424242424242');
    // A ledger with no queue: the withdrawal is reserved but its job is left to this test.
    const txId = await requestWithdrawal(method, 'card', 70_00, { holdHours: 24 });
    const server = await startSandboxPayoutServer({ db: database.db, failingAccount: FAILING_ACCOUNT });
    try {
      const provider = sandboxPayouts({ baseUrl: server.url, timeoutMs: 5_000 });
      const tx = await loadTransaction(database.db, txId);
      const token = (
        await database.db
          .selectFrom('payment_methods')
          .select('type_specific')
          .where('payment_method_id', '=', Number(method))
          .executeTakeFirstOrThrow()
      ).type_specific.token as string;
      // The first run: paid, then died before ProcessWithdrawal.
      const first = await provider.payout({
        idempotencyKey: payoutKeyOf(txId),
        destination: { kind: 'card', account: token },
        amount: tx?.amount ?? 0,
        currency: 'USD',
      });
      expect(first.status).toBe('paid');
      expect((await wallet())?.reserved).toBe(70_00);
      // The retry.
      expect(await payOutWithdrawal({ db: database.db, settings, provider, log }, txId)).toBe('processed');
      // And a third run, as if the retry too died before reporting.
      expect(await payOutWithdrawal({ db: database.db, settings, provider, log }, txId)).toBe('left to the operator');
    } finally {
      await server.close();
    }
    const rows = await payouts(txId);
    expect(rows).toHaveLength(1);
    expect((await loadTransaction(database.db, txId))?.reference).toBe(rows[0]?.payout_id);
    expect(await wallet()).toMatchObject({ total: (before?.total ?? 0) - 70_00, reserved: 0 });
  });

  it('leaves a withdrawal an operator already settled by hand alone: no payout, no ledger step', async () => {
    const before = await wallet();
    const txId = await requestWithdrawal(await card('4242424242424242'), 'card', 40_00, { holdHours: 24 });
    await executeLedgerCommand(
      database.db,
      { type: 'FailWithdrawal', txId, reason: 'customer asked to cancel' },
      settings,
      { actor: 'operator-1' },
    );
    // Now its job runs (late, or again).
    await workers.jobs.enqueue(database.db, [
      { queue: WITHDRAWAL_PAYOUT_QUEUE.name, id: randomUUID(), data: { txId } },
    ]);
    await expect
      .poll(
        async () =>
          (
            await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM pgboss.job WHERE name = ${WITHDRAWAL_PAYOUT_QUEUE.name} AND data->>'txId' = ${txId} AND state = 'completed'
    `.execute(database.db)
          ).rows[0]?.count,
        { timeout: 15_000, interval: 100 },
      )
      .toBe(1);
    expect(await payouts(txId)).toEqual([]);
    expect(await loadTransaction(database.db, txId)).toMatchObject({
      state: 'failed',
      reason: 'customer asked to cancel',
    });
    expect(await wallet()).toEqual(before);
  });

  it('pays coins out as the cash of their quote, and posts the conversion through the exchange accounts', async () => {
    await openWallets(database.db, owner(), { currencies: ['CON'] });
    await executeLedgerCommand(
      database.db,
      {
        type: 'CorrectBalance',
        txId: randomUUID(),
        ownerId: owner(),
        amount: 50_00,
        currency: 'CON',
        reason: 'test coins',
        operatorId: 'test',
      },
      settings,
    );
    const txId = randomUUID();
    const payout = { amount: 3_20, currency: 'CAD' as const };
    // As POST /api/account/withdraw requests it: 50 coins at 15.6 a CAD, the payout in the request's event.
    await executeLedgerCommand(
      database.db,
      {
        type: 'RequestWithdrawal',
        txId,
        ownerId: owner(),
        amount: 50_00,
        currency: 'CON',
        destination: { kind: 'card', paymentMethodId: await card('4242424242424242') },
        payout,
      },
      settings,
    );
    await settled(txId).toBe('completed');
    expect(
      await database.db
        .selectFrom('sandbox_payouts')
        .select(['amount', 'currency', 'status'])
        .where('idempotency_key', '=', payoutKeyOf(txId))
        .execute(),
    ).toEqual([{ amount: 3_20, currency: 'CAD', status: 'paid' }]);
    const entries = await database.db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `ledger-${txId}`)
      .where('type', '=', 'WithdrawalProcessed')
      .executeTakeFirstOrThrow();
    expect((entries.data as { postings: { account: string; amount: number }[] }).postings).toEqual([
      expect.objectContaining({ account: `wallet:${owner()}:CON`, amount: -50_00 }),
      expect.objectContaining({ account: 'platform:exchange:CON', amount: 50_00 }),
      expect.objectContaining({ account: 'platform:exchange:CAD', amount: -3_20 }),
      expect.objectContaining({ account: 'platform:card-funding:CAD', amount: 3_20 }),
    ]);
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
