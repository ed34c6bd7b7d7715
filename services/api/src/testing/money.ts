import type { Currency } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomUUID } from 'node:crypto';
import type { TestApp } from './app.ts';

/**
 * Puts money in an owner's wallet the way a finance operator would, with a
 * correction: tests of money routes start from a funded wallet without going
 * through a card. Corrections are not held, so all of it is withdrawable.
 */
export async function fund(
  subject: TestApp,
  ownerId: string,
  amount: number,
  currency: Currency = 'CON',
): Promise<void> {
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'CorrectBalance',
      txId: `fund-${randomUUID()}`,
      ownerId,
      amount,
      currency,
      reason: 'test funding',
      operatorId: 'test',
    },
    subject.app.ledgerSettings,
  );
}
