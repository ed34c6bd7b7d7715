import type { EmailTransferDeposit } from '@peeks/contracts';
import type { Database, DepositInstructionsTable } from '@peeks/db';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { newReferenceMemo } from './email-transfer.ts';

export type DepositInstructions = Selectable<DepositInstructionsTable>;
type NewInstructions = Omit<Insertable<DepositInstructionsTable>, 'reference'>;

/** References tried before giving up: a clash is about one in 10^11, so a second try is already rare. */
const REFERENCE_TRIES = 5;

export function findInstructions(db: Kysely<Database>, txId: string): Promise<DepositInstructions | undefined> {
  return db.selectFrom('deposit_instructions').selectAll().where('tx_id', '=', txId).executeTakeFirst();
}

/**
 * Stores the instructions of a new deposit under a fresh reference memo;
 * `created` is false when a request with the same transaction id (a retry
 * with the same Idempotency-Key, running at the same time) stored them
 * first, and then they are that request's. A memo another deposit already
 * has is drawn again.
 */
export async function storeInstructions(
  db: Kysely<Database>,
  instructions: NewInstructions,
): Promise<{ row: DepositInstructions; created: boolean }> {
  for (let attempt = 0; attempt < REFERENCE_TRIES; attempt++) {
    const row = await db
      .insertInto('deposit_instructions')
      .values({ ...instructions, reference: newReferenceMemo() })
      .onConflict((conflict) => conflict.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return { row, created: true };
    const first = await findInstructions(db, instructions.tx_id);
    if (first) return { row: first, created: false };
  }
  throw new Error(`no free reference memo after ${REFERENCE_TRIES} tries`);
}

/** Who sends the transfer, as registered: what an operator matches the incoming transfer's sender with. */
export async function senderOf(
  db: Kysely<Database>,
  userId: number,
): Promise<{ sender_name: string | null; sender_email: string }> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'fullname', 'name_first', 'name_last'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const parts = [user.name_first, user.name_last].filter((part): part is string => Boolean(part));
  return { sender_name: parts.length > 0 ? parts.join(' ') : user.fullname, sender_email: user.email };
}

export function depositView(row: DepositInstructions, entryDate: string): EmailTransferDeposit {
  return {
    tx_id: row.tx_id,
    method: row.method,
    reference: row.reference,
    recipient: { name: row.recipient_name, email: row.recipient_email },
    security_question: row.security_question,
    security_answer: row.security_answer,
    amount: row.amount,
    currency: row.currency,
    rate_micros: row.rate_micros,
    coin_estimate: row.coin_estimate,
    entry_date: entryDate,
  };
}

/**
 * E-mail-transfer deposits waiting for a finance operator, oldest first,
 * with what to match an incoming transfer against (reference memo, amount,
 * sender). The operator's clear and reject act on `tx_id`.
 */
export function pendingEmailTransferDeposits(db: Kysely<Database>) {
  return db
    .selectFrom('deposit_instructions as d')
    .innerJoin('ledger_transactions as t', 't.tx_id', 'd.tx_id')
    .selectAll('d')
    .select(['t.state', 't.amount as coins'])
    .where('t.state', '=', 'pending')
    .orderBy('d.created_at')
    .orderBy('d.tx_id')
    .execute();
}

/** The deposit a transfer's memo names, in any letter case and whatever its state. */
export function depositByReference(db: Kysely<Database>, reference: string) {
  return db
    .selectFrom('deposit_instructions as d')
    .innerJoin('ledger_transactions as t', 't.tx_id', 'd.tx_id')
    .selectAll('d')
    .select(['t.state', 't.amount as coins'])
    .where('d.reference', '=', reference.trim().toUpperCase())
    .executeTakeFirst();
}
