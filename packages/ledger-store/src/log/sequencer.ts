import type { AsyncProjection } from '@peeks/db';
import { leafHash } from '@peeks/log-verify';
import { frontierAt, logSize } from './log-store.ts';
import { appendLeaves, isStoredLevel } from './tree-shape.ts';

/**
 * The ledger log's sequencer: an async projection, so it reads events in the
 * projections' safe (transaction id, position) order, which is commit order
 * for everything it can see, and gives each the next log index. It runs
 * after the fact; an append neither waits for it nor takes a lock for it.
 * The runner applies a batch and moves its checkpoint in one transaction,
 * with the checkpoint row locked, so no index is given twice or skipped.
 */
/** How often workers look for events to sequence: a quarter second keeps the log within 2 s of the writes. */
export const SEQUENCER_POLL_MS = 250;

export const ledgerLog: AsyncProjection = {
  name: 'ledger_log',
  async apply(trx, events) {
    const size = await logSize(trx);
    const frontier = await frontierAt(trx, size);
    const leafData = events.map((event) => Buffer.from(event.hash, 'hex'));
    const nodes = appendLeaves(size, frontier, leafData.map(leafHash)).filter((node) => isStoredLevel(node.level));
    const now = new Date();
    await trx
      .insertInto('ledger_log_leaves')
      .values(
        events.map((event, offset) => ({
          log_index: size + offset,
          stream_id: event.streamId,
          stream_version: event.streamVersion,
          leaf_data: leafData[offset] as Buffer,
          sequenced_at: now,
        })),
      )
      .execute();
    if (nodes.length > 0)
      await trx
        .insertInto('ledger_log_nodes')
        .values(nodes.map((node) => ({ level: node.level, node_index: node.index, hash: node.hash })))
        .execute();
  },
};
