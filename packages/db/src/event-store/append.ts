import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { InvalidEvent, StreamVersionConflict } from './errors.ts';
import { GENESIS_HASH, canonicalEvent, chainHash } from './hash-chain.ts';
import { streamHeads, type StreamHead } from './stream-heads.ts';
import type { EventMetadata, ExpectedVersion, JsonObject, NewEvent, StoredEvent } from './types.ts';

export interface AppendOptions {
  expectedVersion: ExpectedVersion;
  metadata?: Partial<EventMetadata>;
  now?: () => Date;
}

export interface AppendResult<Type extends string, Data extends JsonObject> {
  /** The stream's version after this append: pass it as the next expectedVersion. */
  version: number;
  events: StoredEvent<Type, Data>[];
}

const NO_METADATA: EventMetadata = {
  actor: null,
  requestId: null,
  idempotencyKey: null,
  requestFingerprint: null,
  clientIp: null,
};
const EMPTY_STREAM: StreamHead = { version: 0, hash: GENESIS_HASH };
const ATTEMPTS = 3;

/**
 * Appends events to one stream if it is at `expectedVersion`, else throws
 * StreamVersionConflict and writes nothing.
 *
 * One call of the `append_events` SQL function (append-events.sql) is the whole check-and-write:
 * the unique (stream, version) index gives each version to exactly one
 * writer (`ON CONFLICT DO NOTHING`), and the rows go in only if the event
 * they chain from exists with the hash they were chained to. So no append
 * can skip a version, chain onto an event that was rolled back, or
 * half-succeed. Conflicts never raise an SQL error, so a caller's
 * transaction stays usable. Pass a transaction as `db` to
 * append in the same transaction as inline projections.
 */
export async function appendToStream<Type extends string, Data extends JsonObject>(
  db: Kysely<Database>,
  streamId: string,
  events: readonly NewEvent<Type, Data>[],
  options: AppendOptions,
): Promise<AppendResult<Type, Data>> {
  const { expectedVersion } = options;
  if (expectedVersion !== 'any' && !(Number.isSafeInteger(expectedVersion) && expectedVersion >= 0)) {
    throw new InvalidEvent(`expected version must be a whole number or 'any', got ${String(expectedVersion)}`);
  }
  if (events.length === 0) throw new InvalidEvent('an append needs at least one event');
  const metadata: EventMetadata = { ...NO_METADATA, ...options.metadata };
  const createdAt = (options.now ?? (() => new Date()))();
  const append = (executor: Kysely<Database>, head: StreamHead) =>
    insertAfter(executor, streamId, head, events, metadata, createdAt);

  if (expectedVersion === 'any') return appendAtHead(db, streamId, append);

  const cached = streamHeads.get(streamId);
  let head =
    expectedVersion === 0 ? EMPTY_STREAM : cached?.version === expectedVersion ? cached : await readHead(db, streamId);
  for (let attempt = 1; ; attempt++) {
    if (head.version !== expectedVersion) throw new StreamVersionConflict(streamId, expectedVersion, head.version);
    const written = await append(db, head);
    if (written) return written;
    // Nothing went in: another writer took the version (the re-read shows it
    // and the check above refuses), or our cached head was stale (the re-read
    // corrects it and we try again).
    if (attempt === ATTEMPTS) throw new StreamVersionConflict(streamId, expectedVersion, null);
    head = await readHead(db, streamId);
  }
}

/**
 * `'any'`: lock the stream's registration row so concurrent 'any' appenders
 * queue instead of racing; only two writers creating the same stream can
 * still collide, and the loser then finds the row to lock.
 */
async function appendAtHead<Result>(
  db: Kysely<Database>,
  streamId: string,
  append: (executor: Kysely<Database>, head: StreamHead) => Promise<Result | null>,
): Promise<Result> {
  // The write goes through the same transaction as the lock: on a pool, a
  // second connection would both miss the lock and wait for a free connection
  // while holding one, which starves the pool under concurrency.
  const locked = async (trx: Kysely<Database>) => {
    for (let attempt = 1; ; attempt++) {
      await trx.selectFrom('streams').select('stream_id').where('stream_id', '=', streamId).forUpdate().execute();
      const written = await append(trx, await readHead(trx, streamId));
      if (written) return written;
      if (attempt === ATTEMPTS) throw new StreamVersionConflict(streamId, 'any', null);
    }
  };
  return db.isTransaction ? locked(db) : db.transaction().execute(locked);
}

async function readHead(db: Kysely<Database>, streamId: string): Promise<StreamHead> {
  const last = await db
    .selectFrom('events')
    .select(['stream_version', 'hash'])
    .where('stream_id', '=', streamId)
    .orderBy('stream_version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last ? { version: last.stream_version, hash: last.hash } : EMPTY_STREAM;
}

async function insertAfter<Type extends string, Data extends JsonObject>(
  db: Kysely<Database>,
  streamId: string,
  head: StreamHead,
  events: readonly NewEvent<Type, Data>[],
  metadata: EventMetadata,
  createdAt: Date,
): Promise<AppendResult<Type, Data> | null> {
  const prepared = prepareAppend(streamId, head, events, metadata, createdAt);
  const { rows } =
    await sql<AppendedRow>`SELECT event_position, event_version, event_transaction_id FROM append_events(${appendArguments(prepared)})`
      .execute(db)
      .catch((error: unknown) => {
        throw translateWriteError(error, streamId, head.version);
      });
  return appendedEvents(prepared, rows);
}

/**
 * An append with its hash chain worked out, for `append_events` or for
 * callers that write it inside a larger SQL call of their own (the ledger's
 * commit appends and projects a batch in one round trip).
 */
export interface PreparedAppend<Type extends string, Data extends JsonObject> {
  streamId: string;
  head: StreamHead;
  metadata: EventMetadata;
  createdAt: Date;
  chained: (ChainedRow & { type: Type; data: Data })[];
}

/** The row `append_events` returns for each event it wrote. */
export type AppendedRow = { event_position: number; event_version: number; event_transaction_id: string };

export function prepareAppend<Type extends string, Data extends JsonObject>(
  streamId: string,
  head: StreamHead,
  events: readonly NewEvent<Type, Data>[],
  metadata: Partial<EventMetadata>,
  createdAt: Date,
): PreparedAppend<Type, Data> {
  if (events.length === 0) throw new InvalidEvent('an append needs at least one event');
  const fullMetadata: EventMetadata = { ...NO_METADATA, ...metadata };
  const chained: PreparedAppend<Type, Data>['chained'] = [];
  let prevHash = head.hash;
  for (const [index, event] of events.entries()) {
    const version = head.version + index + 1;
    const hash = chainHash(
      prevHash,
      canonicalEvent({
        streamId,
        streamVersion: version,
        type: event.type,
        data: event.data,
        metadata: fullMetadata,
        createdAt,
      }),
    );
    chained.push({ version, type: event.type, data: event.data, prevHash, hash });
    prevHash = hash;
  }
  return { streamId, head, metadata: fullMetadata, createdAt, chained };
}

/** The arguments of `append_events`, in its order, as one SQL fragment. */
function appendArguments(prepared: PreparedAppend<string, JsonObject>) {
  const { streamId, head, chained, metadata, createdAt } = prepared;
  return sql.join([
    sql`${streamId}`,
    sql`${head.version}`,
    sql`${head.hash}`,
    sql`${chained.map((event) => event.type)}::text[]`,
    sql`${chained.map((event) => JSON.stringify(event.data))}::text[]`,
    sql`${JSON.stringify(metadata)}::jsonb`,
    sql`${createdAt}::timestamptz`,
    sql`${chained.map((event) => event.hash)}::text[]`,
  ]);
}

/**
 * The stored events of an append from the rows `append_events` returned,
 * or null when it returned none (the stream had moved on: nothing went in).
 */
export function appendedEvents<Type extends string, Data extends JsonObject>(
  prepared: PreparedAppend<Type, Data>,
  rows: readonly AppendedRow[],
): AppendResult<Type, Data> | null {
  if (rows.length === 0) return null;
  const { streamId, head, chained, metadata, createdAt } = prepared;
  const byVersion = new Map(rows.map((row) => [row.event_version, row]));
  const stored = chained.map((event): StoredEvent<Type, Data> => {
    const row = byVersion.get(event.version);
    if (!row) throw new Error(`append to ${streamId} lost version ${event.version}`);
    return {
      position: row.event_position,
      streamId,
      streamVersion: event.version,
      type: event.type,
      data: event.data,
      metadata,
      createdAt,
      transactionId: row.event_transaction_id,
      prevHash: event.prevHash,
      hash: event.hash,
    };
  });
  const version = head.version + chained.length;
  streamHeads.set(streamId, { version, hash: chained.at(-1)?.hash ?? head.hash });
  return { version, events: stored };
}

type ChainedRow = { version: number; type: string; prevHash: string; hash: string };

function translateWriteError(error: unknown, streamId: string, expectedVersion: ExpectedVersion): unknown {
  const code = (error as { code?: unknown }).code;
  // A serialization failure under a stricter isolation level, or a version
  // taken despite the claim (which should not happen): another writer got
  // there first, and the statement wrote nothing.
  if (code === '40001' || code === '23505') return new StreamVersionConflict(streamId, expectedVersion, null);
  // Text jsonb refuses (unsupported Unicode escapes and the like).
  if (code === '22P05' || code === '22P02')
    return new InvalidEvent(`event data for ${streamId} is not storable: ${(error as Error).message}`, {
      cause: error,
    });
  return error;
}
