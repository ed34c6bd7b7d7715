import type { Database, EventMetadata } from '@peeks/db';
import { isFollowUp, isSaleReturn, needsOf, type LedgerCommand } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import { groupCommitFor } from './group-commit.ts';
import { executeAlone, executeLocked } from './lone-path.ts';
import type { LedgerOutcome, LedgerSettings } from './types.ts';

/**
 * Runs one ledger command, and says which way it goes:
 * - inside a caller's transaction (`db` is one: an idempotent request, a
 *   job), alone, locking its wallets as it reads them, so that it commits
 *   with the caller's own rows (lone-path.ts);
 * - a follow-up of an existing transaction (release a hold, process a
 *   withdrawal), a return of a sale (decided against the sale's sum of
 *   returns, which the commit checks), or a cash-out of coins (which must
 *   read until matured coins cover it, where the group commit keeps only a
 *   wallet's first coins), alone, optimistically first (lone-path.ts);
 * - a new transaction, through the process's group commit, which decides
 *   and commits the commands in flight together (group-commit.ts). When its
 *   queue is full, it refuses with LedgerQueueFull.
 * A command whose transaction id already exists is a retry: it returns that
 * transaction and moves nothing.
 */
export async function executeLedgerCommand(
  db: Kysely<Database>,
  command: LedgerCommand,
  settings: LedgerSettings,
  metadata: Partial<EventMetadata> = {},
): Promise<LedgerOutcome> {
  const request = { command, settings, metadata };
  if (db.isTransaction) return executeLocked(db, request);
  if (isFollowUp(command) || isSaleReturn(command) || isCashOut(command)) return executeAlone(db, request);
  return groupCommitFor(db).submit(request);
}

const isCashOut = (command: LedgerCommand) => needsOf(command, null).coins?.cashOut === true;
