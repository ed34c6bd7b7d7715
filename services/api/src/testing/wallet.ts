import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomUUID } from 'node:crypto';
import { fund } from './money.ts';
import type { TestApp } from './app.ts';
import { signedUp, type SignedIn } from './merchants.ts';

/** Sends coins from one owner to another through the ledger itself (no HTTP), as send-fund will; answers the transaction id. */
export async function transfer(
  subject: TestApp,
  fromOwnerId: string,
  toOwnerId: string,
  amount: number,
): Promise<string> {
  const txId = `transfer-${randomUUID()}`;
  await executeLedgerCommand(
    subject.database.db,
    { type: 'Transfer', txId, kind: 'P2P', fromOwnerId, toOwnerId, amount, fee: 0, currency: 'CON', memo: null },
    subject.app.ledgerSettings,
  );
  return txId;
}

/** A transaction `owner` paid: funded, then 2.50 coins sent to a new user. */
export async function paidByOwner(owner: SignedIn, subject: TestApp): Promise<string> {
  const payer = userOwnerId(owner.user.user_id);
  const payee = await signedUp(subject, 'personal');
  await fund(subject, payer, 10_000);
  return transfer(subject, payer, userOwnerId(payee.user.user_id), 250);
}

/** The id of the posting to `owner`'s coin wallet in a transaction it paid. */
export async function ownLedgerId(owner: SignedIn, subject: TestApp): Promise<string> {
  const txId = await paidByOwner(owner, subject);
  const entry = await subject.database.db
    .selectFrom('ledger_entries')
    .select('ledger_id')
    .where('tx_id', '=', txId)
    .where('account_id', '=', walletIdOf(userOwnerId(owner.user.user_id), 'CON'))
    .executeTakeFirstOrThrow();
  return entry.ledger_id;
}
