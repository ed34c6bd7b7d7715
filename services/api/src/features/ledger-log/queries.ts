import { FINANCE_OPERATOR_ROLE } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { transactionStream } from '@peeks/ledger';
import type { Kysely } from 'kysely';

/**
 * A transaction's leaf in the ledger log: its own stream's first event, the
 * one that records the transaction as made. Later events of the stream (a
 * hold released, a return) are leaves of their own.
 */
export async function transactionLeaf(
  db: Kysely<Database>,
  txId: string,
): Promise<{ leafIndex: number; leafData: Buffer } | null> {
  const row = await db
    .selectFrom('events')
    .innerJoin('ledger_log_leaves', 'ledger_log_leaves.event_position', 'events.position')
    .select(['ledger_log_leaves.log_index', 'ledger_log_leaves.leaf_data'])
    .where('events.stream_id', '=', transactionStream(txId))
    .where('events.stream_version', '=', 1)
    .executeTakeFirst();
  return row ? { leafIndex: row.log_index, leafData: row.leaf_data } : null;
}

/** Whether the transaction exists at all (an operator may ask about anyone's). */
export async function transactionExists(db: Kysely<Database>, txId: string): Promise<boolean> {
  // The ledger's own commit writes its events without a `streams` row: its first event says it exists.
  const row = await db
    .selectFrom('events')
    .select('position')
    .where('stream_id', '=', transactionStream(txId))
    .where('stream_version', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isFinanceOperator(db: Kysely<Database>, userId: number): Promise<boolean> {
  const user = await db.selectFrom('users').select('role').where('user_id', '=', userId).executeTakeFirst();
  return user?.role === FINANCE_OPERATOR_ROLE;
}

export async function recentCheckpoints(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('ledger_log_checkpoints')
    .select(['tree_size', 'created_at', 'note'])
    .orderBy('tree_size', 'desc')
    .limit(limit)
    .execute();
}

export async function witnessDeliveries(db: Kysely<Database>) {
  return db.selectFrom('ledger_log_witnesses').selectAll().orderBy('witness').execute();
}
