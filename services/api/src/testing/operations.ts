import { DEFAULT_RATE_MICROS, type Currency, type DepositMethod } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { signedUp, type SignedIn } from './merchants.ts';
import { makeFinanceOperator } from '../features/operations/operator.ts';

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
