import type { AppendedRow, Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import { commitBatch } from './commit-batch.ts';
import type { CommittedWallet, Decided, LedgerJob, LedgerJobs, ReadState } from './types.ts';

/** The commit found a wallet changed since it was read (40001): decide again. */
export const isSerializationFailure = (error: unknown) => (error as { code?: unknown }).code === '40001';

/**
 * Appends and projects the decided commands in one `ledger_commit` call
 * (sql/ledger-commit.sql), provided the wallets are still at
 * `read.versions`; the rows of the events written, and the wallets as the
 * batch leaves them (written when `rows` has every command's events).
 * Raises 40001 (a wallet changed) or, for several commands, PK001 (one of
 * their transactions exists already), and then writes nothing.
 * When the events leave jobs behind, the call and the enqueueing of the
 * jobs of the transactions it wrote share one database transaction. The
 * commit announces the wallets' new versions as coming from `origin`.
 */
export async function commitDecisions(
  db: Kysely<Database>,
  read: Pick<ReadState, 'wallets' | 'versions'>,
  decisions: readonly Decided[],
  origin?: string,
): Promise<{ rows: (AppendedRow & { stream_id: string })[]; wallets: CommittedWallet[] }> {
  const batch = commitBatch(read, decisions);
  const commit = async (db: Kysely<Database>) => {
    const { rows } = await sql<AppendedRow & { stream_id: string }>`
      SELECT stream_id, event_position, event_version, event_transaction_id
      FROM ledger_commit(${[...read.versions.keys()]}::text[], ${[...read.versions.values()]}::bigint[], ${JSON.stringify({ origin, ...batch })}::jsonb)
    `.execute(db);
    return { rows, wallets: batch.wallets };
  };
  if (decisions.every(({ jobs }) => jobs.length === 0)) return commit(db);
  const inTransaction = async (trx: Kysely<Database>) => {
    const committed = await commit(trx);
    const written = new Set(committed.rows.map((row) => row.stream_id));
    const byQueue = new Map<LedgerJobs, LedgerJob[]>();
    for (const { prepared, jobs, queue } of decisions) {
      if (!queue || jobs.length === 0 || !written.has(prepared.streamId)) continue;
      const ofQueue = byQueue.get(queue) ?? [];
      ofQueue.push(...jobs);
      byQueue.set(queue, ofQueue);
    }
    for (const [queue, jobs] of byQueue) await queue.enqueue(trx, jobs);
    return committed;
  };
  return db.isTransaction ? inTransaction(db) : db.transaction().execute(inTransaction);
}
