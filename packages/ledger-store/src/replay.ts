import type { Database } from '@peeks/db';
import { isFollowUp, type LedgerCommand, type LedgerRuleViolation } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import { readTransaction } from './transactions.ts';
import type { LedgerOutcome } from './types.ts';

/** A retry's answer: the transaction as it exists, moving nothing; null when there is no such transaction. */
export async function replay(db: Kysely<Database>, txId: string): Promise<LedgerOutcome | null> {
  const existing = await readTransaction(db, txId);
  return existing ? { record: existing.record, events: [], replayed: true } : null;
}

/**
 * A refused command. A retry of a command that went through may no longer
 * pass the rules (the money has moved on): it still gets its first outcome.
 */
export async function refusedOutcome(
  db: Kysely<Database>,
  command: LedgerCommand,
  refused: LedgerRuleViolation,
): Promise<LedgerOutcome> {
  if (isFollowUp(command)) throw refused;
  const first = await replay(db, command.txId);
  if (!first) throw refused;
  return first;
}
