import { readEventHashes, type AsyncProjection, type Database, type EventHash } from '@peeks/db';
import { leafHash } from '@peeks/log-verify';
import { sql, type Kysely } from 'kysely';
import { frontierAt } from './log-store.ts';
import { appendLeaves, isStoredLevel } from './tree-shape.ts';

/**
 * The ledger log's sequencer: an async projection, so it reads events in the
 * projections' safe (transaction id, position) order, which is commit order
 * for everything it can see, and gives each the next log index. It runs
 * after the fact; an append neither waits for it nor takes a lock for it.
 * The runner applies a batch and moves its checkpoint in one transaction,
 * with the checkpoint row locked, so no index is given twice or skipped.
 *
 * It is built to cost the write path's machine little: it reads only each
 * event's place and chain hash, in batches of up to a few thousand, writes a
 * batch's leaves and nodes in one statement each, and keeps the tree's
 * frontier in memory between batches.
 */
/**
 * How often workers look for events to sequence: a quarter second keeps the log within 2 s of the writes, and a
 * poll that finds nothing costs one small transaction.
 */
export const SEQUENCER_POLL_MS = 250;

/** At most this many events per batch: a few seconds of writes at the ledger's peak rate. */
const SEQUENCER_BATCH = 5_000;

/**
 * The frontier this process last built, and the log it belongs to: its size
 * and last leaf. A batch uses it only when the log still ends there, so a
 * batch rolled back, another process's batch, or another database leaves it
 * unused and the frontier is read again.
 */
let built: { size: number; lastLeaf: Buffer; frontier: Buffer[] } | null = null;

export const ledgerLog: AsyncProjection<EventHash> = {
  name: 'ledger_log',
  batchSize: SEQUENCER_BATCH,
  read: (db, after, limit) => readEventHashes(db, { after, limit }),
  async apply(trx, events) {
    const { rows } = await sql<{ log_index: number; leaf_data: Buffer }>`
      SELECT log_index, leaf_data FROM ledger_log_leaves ORDER BY log_index DESC LIMIT 1
    `.execute(trx);
    const last = rows[0];
    const size = last ? last.log_index + 1 : 0;
    const frontier =
      built && built.size === size && last?.leaf_data.equals(built.lastLeaf)
        ? built.frontier
        : await frontierAt(trx, size);
    const leafData = events.map((event) => Buffer.from(event.hash, 'hex'));
    const grown = appendLeaves(size, frontier, leafData.map(leafHash));
    const nodes = grown.nodes.filter((node) => isStoredLevel(node.level));
    await sql`
      INSERT INTO ledger_log_leaves (log_index, event_position, leaf_data)
      SELECT ${size}::bigint + ordinality - 1, position, leaf_data
      FROM unnest(${events.map((event) => event.position)}::bigint[], ${leafData}::bytea[])
        WITH ORDINALITY AS batch(position, leaf_data, ordinality)
    `.execute(trx);
    if (nodes.length > 0)
      await sql`
        INSERT INTO ledger_log_nodes (level, node_index, hash)
        SELECT * FROM unnest(
          ${nodes.map((node) => node.level)}::smallint[],
          ${nodes.map((node) => node.index)}::bigint[],
          ${nodes.map((node) => node.hash)}::bytea[]
        )
      `.execute(trx);
    built = { size: size + events.length, lastLeaf: leafData.at(-1) as Buffer, frontier: grown.frontier };
  },
};

/**
 * What the sequencer has not reached yet: events past its checkpoint, and
 * how long ago the oldest was written (0 when it is caught up).
 */
export async function sequencerLag(db: Kysely<Database>, now: Date): Promise<{ events: number; seconds: number }> {
  // The checkpoint first, so that the events after it are an index range, not a scan of every event.
  const { rows } = await sql<{ events: number; oldest: Date | null }>`
    SELECT count(*)::int AS events, min(e.created_at) AS oldest
    FROM (
      SELECT coalesce(max(transaction_id), '0'::xid8) AS transaction_id, coalesce(max(position), 0) AS position
      FROM projection_checkpoints WHERE name = ${ledgerLog.name}
    ) c
    CROSS JOIN LATERAL (
      SELECT created_at FROM events WHERE (transaction_id, position) > (c.transaction_id, c.position)
    ) e
  `.execute(db);
  const row = rows[0];
  return {
    events: row?.events ?? 0,
    seconds: row?.oldest ? Math.max(0, (now.getTime() - row.oldest.getTime()) / 1000) : 0,
  };
}
