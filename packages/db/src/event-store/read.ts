import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, EventsTable } from '../schema.ts';
import { START_OF_LOG, type EventMetadata, type GlobalCheckpoint, type JsonObject, type StoredEvent } from './types.ts';

type EventRow = Selectable<EventsTable>;

const eventColumns = [
  'position',
  'stream_id',
  'stream_version',
  'type',
  'data',
  'metadata',
  'created_at',
  'transaction_id',
  'prev_hash',
  'hash',
] as const;

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    position: row.position,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data as JsonObject,
    metadata: row.metadata as EventMetadata,
    createdAt: row.created_at,
    transactionId: row.transaction_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** A stream's events in version order, from `fromVersion` (inclusive). */
export async function readStream(
  db: Kysely<Database>,
  streamId: string,
  options: { fromVersion?: number; maxCount?: number } = {},
): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(eventColumns)
    .where('stream_id', '=', streamId)
    .where('stream_version', '>=', options.fromVersion ?? 1)
    .orderBy('stream_version')
    .$if(options.maxCount !== undefined, (query) => query.limit(options.maxCount ?? 0))
    .execute();
  return rows.map(toStoredEvent);
}

export interface GlobalBatch {
  events: StoredEvent[];
  /** Save this and pass it back as `after` to continue exactly where this batch ended. */
  checkpoint: GlobalCheckpoint;
}

/**
 * Every event of every stream, in (transaction id, position) order, after
 * `after`. Only transactions older than the oldest one still running (the
 * snapshot's xmin) are read: their set of events is final, so an event that
 * commits late always sorts after the checkpoint instead of behind it. A
 * bigserial position alone is not a safe checkpoint: a transaction that took
 * position 5 can commit after one that took position 6 was already read.
 */
export async function readAll(
  db: Kysely<Database>,
  options: { after?: GlobalCheckpoint; limit?: number } = {},
): Promise<GlobalBatch> {
  const after = options.after ?? START_OF_LOG;
  const rows = await safelyAfter(db, after, options.limit ?? 500)
    .select(eventColumns)
    .execute();
  const events = rows.map(toStoredEvent);
  const last = events.at(-1);
  return { events, checkpoint: last ? { transactionId: last.transactionId, position: last.position } : after };
}

/** An event's place in the global order and its chain hash: all the ledger log needs of it. */
export interface EventHash extends GlobalCheckpoint {
  /** The event's chain hash, 64 hex digits. */
  hash: string;
}

/**
 * The same events as readAll, in the same safe order, but only their place
 * and chain hash: no JSON is read, sent or parsed.
 */
export async function readEventHashes(
  db: Kysely<Database>,
  options: { after?: GlobalCheckpoint; limit?: number } = {},
): Promise<EventHash[]> {
  const rows = await safelyAfter(db, options.after ?? START_OF_LOG, options.limit ?? 500)
    .select(['transaction_id', 'position', 'hash'])
    .execute();
  return rows.map((row) => ({ transactionId: row.transaction_id, position: row.position, hash: row.hash }));
}

function safelyAfter(db: Kysely<Database>, after: GlobalCheckpoint, limit: number) {
  return db
    .selectFrom('events')
    .where(sql<boolean>`(transaction_id, position) > (${after.transactionId}::xid8, ${after.position}::bigint)`)
    .where(sql<boolean>`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`)
    .orderBy('transaction_id')
    .orderBy('position')
    .limit(limit);
}
