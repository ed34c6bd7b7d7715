import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { InvalidEvent, StreamVersionConflict } from './errors.ts';
import { GENESIS_HASH, canonicalEvent, chainHash } from './hash-chain.ts';
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

const NO_METADATA: EventMetadata = { actor: null, requestId: null, idempotencyKey: null, clientIp: null };
const ANY_VERSION_ATTEMPTS = 3;

/**
 * Appends events to one stream if it is at `expectedVersion`, else throws
 * StreamVersionConflict and writes nothing.
 *
 * The check and the write are one statement: the stream head is moved with a
 * compare-and-set (`version = expected AND last_hash = previous`) and the
 * events are inserted only if that moved a row. Concurrent appenders with the
 * same expectation queue on the head's row lock; the first wins, the rest see
 * the new version and get nothing. Pass a transaction as `db` to append in
 * the same transaction as inline projections.
 */
export async function appendToStream<Type extends string, Data extends JsonObject>(
  db: Kysely<Database>,
  streamId: string,
  events: readonly NewEvent<Type, Data>[],
  options: AppendOptions,
): Promise<AppendResult<Type, Data>> {
  if (events.length === 0) throw new InvalidEvent('an append needs at least one event');
  const { expectedVersion } = options;
  if (expectedVersion !== 'any' && !(Number.isSafeInteger(expectedVersion) && expectedVersion >= 0)) {
    throw new InvalidEvent(`expected version must be a whole number or 'any', got ${String(expectedVersion)}`);
  }
  const metadata: EventMetadata = { ...NO_METADATA, ...options.metadata };
  const createdAt = (options.now ?? (() => new Date()))();

  if (expectedVersion !== 'any') {
    const head = expectedVersion === 0 ? { version: 0, lastHash: GENESIS_HASH } : await readHead(db, streamId);
    if (head.version !== expectedVersion) throw new StreamVersionConflict(streamId, expectedVersion, head.version);
    const written = await writeIfAt(db, streamId, head, events, metadata, createdAt);
    // Someone appended between our read and our write: the caller decided on stale state.
    if (!written) throw new StreamVersionConflict(streamId, expectedVersion, null);
    return written;
  }

  // 'any': lock the head so the write cannot lose a race. Only two writers
  // creating the same stream can still collide, and the loser's second
  // attempt finds the head to lock.
  const appendAtHead = async (trx: Kysely<Database>) => {
    for (let attempt = 1; ; attempt++) {
      const written = await writeIfAt(trx, streamId, await readHead(trx, streamId, { lock: true }), events, metadata, createdAt);
      if (written) return written;
      if (attempt === ANY_VERSION_ATTEMPTS) throw new StreamVersionConflict(streamId, 'any', null);
    }
  };
  return db.isTransaction ? appendAtHead(db) : db.transaction().execute(appendAtHead);
}

interface StreamHead {
  version: number;
  lastHash: string;
}

async function readHead(db: Kysely<Database>, streamId: string, options: { lock?: boolean } = {}): Promise<StreamHead> {
  const row = await db
    .selectFrom('streams')
    .select(['version', 'last_hash'])
    .where('stream_id', '=', streamId)
    .$if(options.lock === true, (query) => query.forUpdate())
    .executeTakeFirst();
  return row ? { version: row.version, lastHash: row.last_hash } : { version: 0, lastHash: GENESIS_HASH };
}

async function writeIfAt<Type extends string, Data extends JsonObject>(
  db: Kysely<Database>,
  streamId: string,
  head: StreamHead,
  events: readonly NewEvent<Type, Data>[],
  metadata: EventMetadata,
  createdAt: Date,
): Promise<AppendResult<Type, Data> | null> {
  const chained: { version: number; type: Type; data: Data; json: string; prevHash: string; hash: string }[] = [];
  let prevHash = head.lastHash;
  for (const [index, event] of events.entries()) {
    const version = head.version + index + 1;
    const hash = chainHash(prevHash, canonicalEvent({ streamId, streamVersion: version, type: event.type, data: event.data, metadata, createdAt }));
    chained.push({ version, type: event.type, data: event.data, json: JSON.stringify(event.data), prevHash, hash });
    prevHash = hash;
  }
  const newVersion = head.version + events.length;

  const { rows } = await sql<{ position: number; stream_version: number; transaction_id: string }>`
    WITH head AS (
      INSERT INTO streams AS s (stream_id, version, last_hash, created_at, updated_at)
      VALUES (${streamId}, ${newVersion}, ${prevHash}, ${createdAt}, ${createdAt})
      ON CONFLICT (stream_id) DO UPDATE
        SET version = excluded.version, last_hash = excluded.last_hash, updated_at = excluded.updated_at
        WHERE s.version = ${head.version} AND s.last_hash = ${head.lastHash}
      RETURNING s.stream_id
    )
    INSERT INTO events (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
    SELECT head.stream_id, e.stream_version, e.type, e.data::jsonb, ${JSON.stringify(metadata)}::jsonb, ${createdAt}, e.prev_hash, e.hash
    FROM head CROSS JOIN unnest(
      ${chained.map((e) => e.version)}::bigint[],
      ${chained.map((e) => e.type)}::text[],
      ${chained.map((e) => e.json)}::text[],
      ${chained.map((e) => e.prevHash)}::text[],
      ${chained.map((e) => e.hash)}::text[]
    ) AS e (stream_version, type, data, prev_hash, hash)
    ORDER BY e.stream_version
    RETURNING position, stream_version, transaction_id::text
  `
    .execute(db)
    .catch((error: unknown) => {
      throw translateWriteError(error, streamId, head.version);
    });

  if (rows.length === 0) return null;
  const byVersion = new Map(rows.map((row) => [row.stream_version, row]));
  return {
    version: newVersion,
    events: chained.map((event) => {
      const row = byVersion.get(event.version);
      if (!row) throw new Error(`append to ${streamId} lost version ${event.version}`);
      return {
        position: row.position,
        streamId,
        streamVersion: event.version,
        type: event.type,
        data: event.data,
        metadata,
        createdAt,
        transactionId: row.transaction_id,
        prevHash: event.prevHash,
        hash: event.hash,
      };
    }),
  };
}

function translateWriteError(error: unknown, streamId: string, expected: number): unknown {
  const code = (error as { code?: unknown }).code;
  // Unique (stream_id, stream_version) or a serialization failure under a
  // stricter isolation level: another writer got there first.
  if (code === '23505' || code === '40001') return new StreamVersionConflict(streamId, expected, null);
  // Text jsonb refuses (unsupported Unicode escapes and the like).
  if (code === '22P05' || code === '22P02') return new InvalidEvent(`event data for ${streamId} is not storable: ${(error as Error).message}`, { cause: error });
  return error;
}
