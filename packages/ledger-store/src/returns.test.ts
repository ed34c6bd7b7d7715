import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { LedgerRuleViolation, type Currency, type LedgerCommand } from '@peeks/ledger';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitDecisions, isSerializationFailure } from './commit.ts';
import { decideRequest } from './decide.ts';
import { executeLedgerCommand } from './execute.ts';
import { readLedgerState } from './read-state.ts';
import { loadTransaction } from './transactions.ts';
import { verifyLedger } from './verify.ts';
import { openWallets } from './wallets.ts';
import { needsOf } from '@peeks/ledger';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 40 });
});
afterAll(() => database.drop());

const settings = { holdHours: 24 };
let number = 0;
const nextId = (label: string) => `${label}-${++number}`;

/** A merchant and a buyer with money, and a sale of `amount` between them (charged to a card when `card`). */
async function sale(amount: number, currency: Currency, card = false) {
  const merchant = nextId('merchant');
  const buyer = nextId('user');
  await openWallets(database.db, merchant, { currencies: [currency] });
  await openWallets(database.db, buyer, { currencies: [currency] });
  if (!card)
    await executeLedgerCommand(
      database.db,
      {
        type: 'CorrectBalance',
        txId: nextId('funds'),
        ownerId: buyer,
        amount,
        currency,
        reason: 'test',
        operatorId: 'test',
      },
      settings,
    );
  const txId = nextId('sale');
  await executeLedgerCommand(
    database.db,
    {
      type: 'Transfer',
      txId,
      kind: 'PURCHASE',
      fromOwnerId: buyer,
      toOwnerId: merchant,
      amount,
      fee: 0,
      currency,
      memo: null,
      ...(card
        ? { fundedBy: { paymentMethod: { id: '9', type: 'CC' }, charge: { amount, currency }, rateMicros: null } }
        : {}),
    },
    settings,
  );
  return { merchant, buyer, txId, amount, currency };
}

const returnOf = (
  sold: Awaited<ReturnType<typeof sale>>,
  amount: number,
  txId = nextId('return'),
): Extract<LedgerCommand, { type: 'ReturnSale' }> => ({
  type: 'ReturnSale',
  txId,
  saleTxId: sold.txId,
  merchantOwnerId: sold.merchant,
  amount,
  reason: 'test return',
  cardCharge: null,
});

async function saleRow(txId: string) {
  return database.db
    .selectFrom('ledger_transactions')
    .select(['returned_amount', 'return_date'])
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
}

async function returnsOf(txId: string) {
  return database.db
    .selectFrom('ledger_transactions')
    .select(['tx_id', 'amount', 'state'])
    .where('parent_tx_id', '=', txId)
    .execute();
}

async function balance(ownerId: string, currency: Currency) {
  const row = await database.db
    .selectFrom('wallets')
    .select('available')
    .where('wallet_id', '=', `wallet:${ownerId}:${currency}`)
    .executeTakeFirstOrThrow();
  return row.available;
}

describe('returns of a sale', () => {
  it('gives the buyer back part of a sale and marks the sale with its sum of returns and return date', async () => {
    const sold = await sale(10_00, 'USD');
    const outcome = await executeLedgerCommand(database.db, returnOf(sold, 4_00), settings);
    expect(outcome.record).toMatchObject({ type: 'return', state: 'completed', parentTxId: sold.txId, amount: 4_00 });
    expect(await balance(sold.buyer, 'USD')).toBe(4_00);
    expect(await balance(sold.merchant, 'USD')).toBe(6_00);
    const row = await saleRow(sold.txId);
    expect(row.returned_amount).toBe(4_00);
    expect(row.return_date).toBeInstanceOf(Date);
    await expect(executeLedgerCommand(database.db, returnOf(sold, 6_01), settings)).rejects.toMatchObject({
      code: 'return_exceeds_sale',
    });
  });

  it('never returns more than what is left under concurrent returns and retries, on both the optimistic and the locked path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50_00 }),
        fc.array(
          fc.record({
            share: fc.integer({ min: 1, max: 60 }),
            copies: fc.integer({ min: 1, max: 3 }),
            locked: fc.boolean(),
          }),
          {
            minLength: 2,
            maxLength: 10,
          },
        ),
        async (amount, asks) => {
          const sold = await sale(amount, 'USD');
          // Each ask is a share of the sale in hundredths (up to 60%), sent `copies` times at once with one transaction id: a retry racing itself.
          const attempts = asks.flatMap(({ share, copies, locked }) => {
            const command = returnOf(sold, Math.max(1, Math.floor((amount * share) / 100)));
            return Array.from({ length: copies }, () =>
              locked
                ? database.db.transaction().execute((trx) => executeLedgerCommand(trx, command, settings))
                : executeLedgerCommand(database.db, command, settings),
            );
          });
          const settled = await Promise.allSettled(attempts);
          for (const result of settled) {
            if (result.status === 'rejected') {
              expect(result.reason).toBeInstanceOf(LedgerRuleViolation);
              expect((result.reason as LedgerRuleViolation).code).toBe('return_exceeds_sale');
            }
          }
          const returns = await returnsOf(sold.txId);
          const returned = returns.reduce((sum, each) => sum + each.amount, 0);
          expect(returned).toBeLessThanOrEqual(amount);
          expect(new Set(returns.map((each) => each.tx_id)).size).toBe(returns.length);
          expect((await saleRow(sold.txId)).returned_amount).toBe(returned);
          expect(await balance(sold.buyer, 'USD')).toBe(returned);
          expect(await balance(sold.merchant, 'USD')).toBe(amount - returned);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it('refuses at commit a return decided on a stale sum of returns', async () => {
    const sold = await sale(10_00, 'USD');
    const record = await loadTransaction(database.db, sold.txId);
    if (!record) throw new Error('no sale');
    const command = returnOf(sold, 8_00);
    // Decided as if nothing had been returned yet...
    const request = { command, settings, metadata: {} };
    const state = await readLedgerState(database.db, [needsOf(command, record)], false);
    const decision = decideRequest(request, state, null, { record, returned: 0, cardRefunded: 0 });
    if (decision.refused) throw decision.refused;
    // ...while 5.00 is returned meanwhile, by a path that does not touch the merchant's wallet version the decision read.
    await sql`UPDATE ledger_transactions SET returned_amount = 500 WHERE tx_id = ${sold.txId}`.execute(database.db);
    const error = await commitDecisions(database.db, state, [decision]).catch((caught: unknown) => caught);
    expect(isSerializationFailure(error)).toBe(true);
    expect(await returnsOf(sold.txId)).toEqual([]);
    await sql`UPDATE ledger_transactions SET returned_amount = 0 WHERE tx_id = ${sold.txId}`.execute(database.db);
  });

  it('returns a card-paid sale to the card: pending, then confirmed once', async () => {
    const sold = await sale(10_00, 'CAD', true);
    const command = { ...returnOf(sold, 3_00), cardCharge: { amount: 10_00, currency: 'CAD' as const } };
    const pending = await executeLedgerCommand(database.db, command, settings);
    expect(pending.record).toMatchObject({ state: 'pending', paymentMethodId: '9', payeeWalletId: null });
    expect(await balance(sold.merchant, 'CAD')).toBe(7_00);
    expect(await balance(sold.buyer, 'CAD')).toBe(0);
    // A wallet return of a card-paid sale is refused: the money goes back where it came from.
    await expect(executeLedgerCommand(database.db, returnOf(sold, 1_00), settings)).rejects.toMatchObject({
      code: 'payment_method_wrong_use',
    });

    const confirm: LedgerCommand = { type: 'ConfirmCardRefund', txId: command.txId, refundReference: 're_1' };
    const confirmations = await Promise.allSettled([
      executeLedgerCommand(database.db, confirm, settings),
      executeLedgerCommand(database.db, confirm, settings),
    ]);
    expect(confirmations.filter((each) => each.status === 'fulfilled')).toHaveLength(1);
    expect((await loadTransaction(database.db, command.txId))?.state).toBe('completed');
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM events WHERE type = 'CardRefundConfirmed' AND data->>'txId' = ${command.txId}
    `.execute(database.db);
    expect(rows[0]?.count).toBe(1);
  });

  it('leaves a ledger whose read models equal a rebuild from the log', async () => {
    const report = await verifyLedger(database.db);
    expect(report.differences).toEqual([]);
    expect(report.invariantFailures).toEqual([]);
    expect(report.ok).toBe(true);
  }, 60_000);
});
