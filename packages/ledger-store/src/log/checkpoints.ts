import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { signCheckpoint, type LogKey } from './log-key.ts';
import { logSize, rootAt } from './log-store.ts';

export interface StoredCheckpoint {
  treeSize: number;
  note: string;
}

/**
 * Signs a checkpoint of the log as it stands, if it grew since the last
 * one; returns it, or null when there was nothing new (or another process
 * signed the same size first). Stored nodes never change, so the root of the
 * size read is the same whatever the sequencer does meanwhile.
 */
export async function makeCheckpoint(db: Kysely<Database>, key: LogKey, now: Date): Promise<StoredCheckpoint | null> {
  const size = await logSize(db);
  const latest = await latestCheckpoint(db);
  if (size === 0 || size <= (latest?.treeSize ?? 0)) return null;
  const root = await rootAt(db, size);
  const note = signCheckpoint(key, size, root);
  const written = await db
    .insertInto('ledger_log_checkpoints')
    .values({ tree_size: size, root_hash: root, note, created_at: now })
    .onConflict((conflict) => conflict.column('tree_size').doNothing())
    .returning('tree_size')
    .executeTakeFirst();
  return written ? { treeSize: size, note } : null;
}

export async function latestCheckpoint(db: Kysely<Database>): Promise<StoredCheckpoint | null> {
  const row = await db
    .selectFrom('ledger_log_checkpoints')
    .select(['tree_size', 'note'])
    .orderBy('tree_size', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { treeSize: row.tree_size, note: row.note } : null;
}
