import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { GENESIS_HASH, canonicalEvent, chainHash } from './hash-chain.ts';
import { toStoredEvent } from './read.ts';
import type { StoredEvent } from './types.ts';

export interface ChainBreak {
  streamId: string;
  /** The first version whose stored fields do not prove out. */
  version: number;
  reason: string;
}

export interface ChainReport {
  streamsChecked: number;
  eventsChecked: number;
  breaks: ChainBreak[];
}

/**
 * Recomputes a stream's chain from the genesis hash: versions must run 1..n
 * without a gap, and each event must name the previous event's hash and hash
 * to its own. Returns the first break. (Dropping a stream's last events keeps
 * the rest a valid chain; catching that needs heads anchored outside the
 * database, which is future work.)
 */
function verifyChain(events: readonly StoredEvent[], streamId: string): ChainBreak | null {
  let prevHash = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    const version = index + 1;
    if (event.streamVersion !== version)
      return { streamId, version, reason: `version ${event.streamVersion} found where ${version} belongs` };
    if (event.prevHash !== prevHash)
      return { streamId, version, reason: 'previous hash does not match the event before it' };
    const recomputed = chainHash(prevHash, canonicalEvent(event));
    if (recomputed !== event.hash) return { streamId, version, reason: 'stored fields do not hash to the stored hash' };
    prevHash = event.hash;
  }
  return null;
}

export async function verifyStream(db: Kysely<Database>, streamId: string): Promise<ChainReport> {
  return verifyStreams(db, [streamId]);
}

/**
 * Proves the chain of every stream the events name, a page of streams at a
 * time. Not the registered streams: a ledger transaction's stream is claimed
 * by its first event alone (migration 0073).
 */
export async function verifyAllStreams(db: Kysely<Database>, pageSize = 200): Promise<ChainReport> {
  const total: ChainReport = { streamsChecked: 0, eventsChecked: 0, breaks: [] };
  let after = '';
  for (;;) {
    const ids = await db
      .selectFrom('events')
      .select('stream_id')
      .where('stream_id', '>', after)
      .groupBy('stream_id')
      .orderBy('stream_id')
      .limit(pageSize)
      .execute();
    if (ids.length === 0) break;
    const page = await verifyStreams(
      db,
      ids.map((row) => row.stream_id),
    );
    total.streamsChecked += page.streamsChecked;
    total.eventsChecked += page.eventsChecked;
    total.breaks.push(...page.breaks);
    after = ids.at(-1)?.stream_id ?? after;
  }
  return total;
}

async function verifyStreams(db: Kysely<Database>, streamIds: string[]): Promise<ChainReport> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('stream_id', 'in', streamIds)
    .orderBy('stream_id')
    .orderBy('stream_version')
    .execute();
  const eventsById = new Map<string, StoredEvent[]>(streamIds.map((id) => [id, []]));
  for (const row of rows) eventsById.get(row.stream_id)?.push(toStoredEvent(row));

  const breaks: ChainBreak[] = [];
  for (const [streamId, events] of eventsById) {
    const broken = verifyChain(events, streamId);
    if (broken) breaks.push(broken);
  }
  return { streamsChecked: streamIds.length, eventsChecked: rows.length, breaks };
}
