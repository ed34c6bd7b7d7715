import type { BitcoinDepositFlag } from '@peeks/db';
import { coinsForCash, DEFAULT_RATE_MICROS, userOwnerId, type Currency, type DepositMethod } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { signedUp, type SignedIn } from './merchants.ts';
import { banOrRequest, makeFinanceOperator, requestCorrection } from '../features/operations/index.ts';

export type Caller = 'personal' | 'business' | 'operator';

/** A new finance operator, signed in: a personal sign-up promoted the way the CLI does it. */
export async function signedUpOperator(subject: TestApp): Promise<SignedIn> {
  const operator = await signedUp(subject, 'personal');
  expect(await makeFinanceOperator(subject.database.db, operator.user.user_id, new Date())).toBe(true);
  return operator;
}

export const signedUpAs = (subject: TestApp, caller: Caller): Promise<SignedIn> =>
  caller === 'operator' ? signedUpOperator(subject) : signedUp(subject, caller);

const run = (subject: TestApp, command: Parameters<typeof executeLedgerCommand>[1]) =>
  executeLedgerCommand(subject.database.db, command, subject.app.ledgerSettings);

export interface EnteredDeposit {
  txId: string;
  reference: string;
  amount: number;
  currency: Currency;
  coins: number;
}

/**
 * A pending e-mail transfer deposit for `ownerId`, entered the way the
 * deposit routes enter one: the user will send `amount` with `reference`.
 */
export async function enteredDeposit(
  subject: TestApp,
  ownerId: string,
  options: { method?: DepositMethod; amount?: number; currency?: Currency } = {},
): Promise<EnteredDeposit> {
  const { method = 'interac', amount = 50_00, currency = 'CAD' } = options;
  const reference = `PKS${randomBytes(4).toString('hex').toUpperCase()}`;
  const { record } = await run(subject, {
    type: 'EnterDeposit',
    txId: `deposit-${randomUUID()}`,
    ownerId,
    method,
    payment: { amount, currency },
    rateMicros: DEFAULT_RATE_MICROS,
    reference,
    expiresAt: null,
  });
  return { txId: record.txId, reference, amount, currency, coins: record.amount };
}

/** A pending withdrawal of `amount` from `ownerId`'s wallet (which must hold it) to a card. */
export async function requestedWithdrawal(
  subject: TestApp,
  ownerId: string,
  amount: number,
  currency: Currency = 'CON',
): Promise<string> {
  const { record } = await run(subject, {
    type: 'RequestWithdrawal',
    txId: `withdrawal-${randomUUID()}`,
    ownerId,
    amount,
    currency,
    destination: { kind: 'card', paymentMethodId: 'pm-test' },
  });
  return record.txId;
}

/** A testnet P2WPKH address (BIP 173's example): where a test refund goes. */
export const TESTNET_REFUND_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

export interface FlaggedBitcoinDeposit {
  txId: string;
  ownerId: string;
  amountSats: number;
  coins: number;
}

/**
 * A bitcoin deposit for `userId` as the watcher leaves one it flagged:
 * entered in the ledger, `confirmedSats` seen at its address, flagged with
 * `flag`. A 'paid-again' deposit was cleared first (the quoted amount is
 * credited), the others are still pending in the ledger.
 */
export async function flaggedBitcoinDeposit(
  subject: TestApp,
  userId: number,
  options: { flag: BitcoinDepositFlag; amountSats?: number; confirmedSats: number; usdCents?: number },
): Promise<FlaggedBitcoinDeposit> {
  const { db } = subject.database;
  const { flag, amountSats = 20_000, confirmedSats, usdCents = 13_00 } = options;
  const ownerId = userOwnerId(userId);
  const key = await db
    .insertInto('bitcoin_keys')
    .values({
      network: 'testnet',
      xpub: `vpub${randomBytes(40).toString('hex')}`,
      generated: false,
      created_at: new Date(),
    })
    .returning('key_id')
    .executeTakeFirstOrThrow();
  const txId = randomUUID();
  const coins = coinsForCash(usdCents, 'USD', DEFAULT_RATE_MICROS);
  const expiresAt = new Date(Date.now() + 3_600_000);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('bitcoin_deposits')
      .values({
        tx_id: txId,
        user_id: userId,
        key_id: key.key_id,
        derivation_index: 0,
        address: `tb1q${randomBytes(19).toString('hex')}`,
        amount_sats: amountSats,
        usd_cents: usdCents,
        usd_cents_per_btc: Math.round((usdCents * 100_000_000) / amountSats),
        coins,
        created_at: new Date(),
        expires_at: expiresAt,
      })
      .execute();
    await executeLedgerCommand(
      trx,
      {
        type: 'EnterDeposit',
        txId,
        ownerId,
        method: 'bitcoin',
        payment: { amount: usdCents, currency: 'USD' },
        rateMicros: DEFAULT_RATE_MICROS,
        reference: txId,
        expiresAt: expiresAt.toISOString(),
      },
      subject.app.ledgerSettings,
    );
  });
  if (flag === 'paid-again') await run(subject, { type: 'ClearDeposit', txId, clearedBy: 'bitcoin-watcher' });
  await db
    .updateTable('bitcoin_deposits')
    .set({
      watch_state: 'flagged',
      received_sats: confirmedSats,
      confirmed_sats: confirmedSats,
      payment_txids: [randomBytes(32).toString('hex')],
      seen_at: new Date(),
      flag,
      flag_reason: `${confirmedSats} sats for the ${amountSats} due`,
      flagged_at: new Date(),
    })
    .where('tx_id', '=', txId)
    .execute();
  return { txId, ownerId, amountSats, coins };
}

/** A correction of `ownerId`'s coins waiting for approval, asked for by another operator (`requestedBy`). */
export async function pendingCorrection(subject: TestApp, ownerId: string, requestedBy = 'user-0'): Promise<string> {
  const correction = await requestCorrection(subject.database.db, {
    ownerId,
    currency: 'CON',
    amount: 250_00,
    reason: 'Refund of a double charge',
    operator: requestedBy,
    metadata: { actor: requestedBy },
    now: new Date(),
  });
  return correction.correction_id;
}

/** A ban of a new finance operator waiting for approval, asked for by another operator (`requestedBy`). */
export async function pendingBan(subject: TestApp, requestedBy = 'user-0'): Promise<string> {
  const target = await signedUpOperator(subject);
  const asked = await banOrRequest(subject.database.db, subject.app.sessions, {
    userId: target.user.user_id,
    reason: 'Shared their console session',
    operator: requestedBy,
    metadata: { actor: requestedBy },
    now: new Date(),
  });
  if (asked.outcome !== 'requested')
    throw new Error(`the ban of operator ${String(target.user.user_id)} was not requested`);
  return asked.ban.ban_id;
}
