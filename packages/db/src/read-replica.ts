import { sql, type Kysely } from 'kysely';
import { connectDatabase, type PoolOptions } from './pool.ts';
import {
  lagMs,
  laterWrite,
  parseLsn,
  positionAfter,
  readTarget,
  type LastWrite,
  type Lsn,
  type PrimarySample,
  type ReadTarget,
  type StandbySample,
} from './read-routing.ts';
import type { Database } from './schema.ts';

export interface ReadReplicaOptions {
  /** DATABASE_READ_MAX_LAG_MS: a standby further behind is skipped. */
  maxLagMs: number;
  /** How often both servers' WAL positions are read; 100 ms unless given. */
  sampleMs?: number;
  /** Connections to the standby; 10 unless given. */
  max?: number;
  applicationName?: string;
  /** Told when the standby stops answering (once per outage). */
  onError?: (error: Error) => void;
  /** A monotonic clock in ms; performance.now unless given (tests pass their own). */
  now?: () => number;
}

/** People whose last write is remembered at most; the oldest are forgotten first (they have been replayed long since). */
const MAX_WRITERS = 50_000;

/**
 * The standbys of DATABASE_READ_URL and what decides whether a read may go
 * there. Every `sampleMs` it reads the primary's WAL insert position and the
 * standby's replay position (two cheap statements, never one per request),
 * and from them the standby's lag. A person's write is remembered with a
 * position at or past its commit (the API reads it as the write's answer
 * leaves, and also hands it to the browser for other processes); once the
 * standby has replayed that far the person's reads may go there.
 */
export class ReadReplica {
  readonly db: Kysely<Database>;
  readonly #primary: Kysely<Database>;
  readonly #close: () => Promise<void>;
  readonly #maxLagMs: number;
  readonly #sampleMs: number;
  readonly #now: () => number;
  readonly #onError: (error: Error) => void;
  /** Primary positions, oldest first, spanning a little more than the lag bound. */
  readonly #primarySamples: PrimarySample[] = [];
  readonly #keepSamples: number;
  readonly #writes = new Map<string, LastWrite>();
  #standby: StandbySample | null = null;
  #unreachable = false;
  #lagMs = 0;
  #timer: NodeJS.Timeout | null = null;
  #sampling: Promise<void> | null = null;

  constructor(primary: Kysely<Database>, readUrl: string, options: ReadReplicaOptions) {
    const poolOptions: PoolOptions = {
      max: options.max ?? 10,
      applicationName: options.applicationName ?? 'peeks-reader',
      preparedStatements: true,
    };
    const handle = connectDatabase(readUrl, poolOptions);
    this.db = handle.db;
    this.#close = handle.close;
    this.#primary = primary;
    this.#maxLagMs = options.maxLagMs;
    this.#sampleMs = options.sampleMs ?? 100;
    this.#now = options.now ?? (() => performance.now());
    this.#onError = options.onError ?? (() => undefined);
    this.#keepSamples = Math.ceil((2 * options.maxLagMs) / this.#sampleMs) + 4;
  }

  /** Takes a first sample, then one every `sampleMs`. */
  async start(): Promise<void> {
    await this.sample();
    this.#timer = setInterval(() => {
      this.#sampling ??= this.sample().finally(() => {
        this.#sampling = null;
      });
    }, this.#sampleMs);
    this.#timer.unref();
  }

  /**
   * Reads both positions once. A failure to reach the standby sends every read
   * to the primary until one succeeds; one to reach the primary leaves no new
   * position, so a write after it waits for the next.
   */
  async sample(): Promise<void> {
    const at = this.#now();
    const [primary, standby] = await Promise.allSettled([
      sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(this.#primary),
      sql<{ lsn: string | null }>`SELECT pg_last_wal_replay_lsn()::text AS lsn`.execute(this.db),
    ]);
    if (primary.status === 'fulfilled') {
      const text = primary.value.rows[0]?.lsn;
      if (text !== undefined) this.#primarySamples.push({ at, lsn: parseLsn(text) });
      if (this.#primarySamples.length > this.#keepSamples) this.#primarySamples.shift();
    }
    if (standby.status === 'fulfilled') {
      const text = standby.value.rows[0]?.lsn ?? null;
      this.#standby = { at: this.#now(), replayLsn: text === null ? null : parseLsn(text) };
      this.#lagMs = lagMs(this.#primarySamples, this.#standby);
    } else {
      // Told once per outage, not at every sample.
      if (!this.#unreachable) this.#onError(standby.reason as Error);
      this.#standby = null;
    }
    this.#unreachable = standby.status === 'rejected';
  }

  /** The standby's lag at the last sample, in ms; null when it could not be reached. */
  get lagMs(): number | null {
    return this.#standby === null ? null : this.#lagMs;
  }

  /**
   * `who` wrote something that has committed; `lsn`, when known, is a WAL
   * position at or past its commit. Without it the next primary sample
   * stands in for it.
   */
  wrote(who: string, lsn?: Lsn): void {
    this.#writes.delete(who);
    this.#writes.set(who, lsn === undefined ? { wroteAt: this.#now() } : { wroteAt: this.#now(), lsn });
    if (this.#writes.size > MAX_WRITERS) {
      const [oldest] = this.#writes.keys();
      if (oldest !== undefined) this.#writes.delete(oldest);
    }
  }

  /**
   * Where a read of `who`'s (null: nobody signed in) goes now. `writtenLsn`
   * is a write of theirs this process may not have seen (another process
   * served it; see the API's read-replica plugin).
   */
  targetFor(who: string | null, writtenLsn?: Lsn): ReadTarget {
    let lastWrite = who === null ? undefined : this.#writes.get(who);
    if (lastWrite && lastWrite.lsn === undefined) {
      const lsn = positionAfter(this.#primarySamples, lastWrite.wroteAt);
      if (lsn !== undefined) {
        lastWrite = { ...lastWrite, lsn };
        this.#writes.set(who as string, lastWrite);
      }
    }
    return readTarget({
      standby: this.#standby,
      lagMs: this.#lagMs,
      lastWrite: laterWrite(lastWrite, writtenLsn),
      now: this.#now(),
      maxLagMs: this.#maxLagMs,
      // Three missed samples, and at least the lag bound: a standby not seen for that long may be anywhere.
      staleAfterMs: Math.max(3 * this.#sampleMs, this.#maxLagMs),
    });
  }

  /** The database a read of `who`'s goes to now. */
  readerFor(who: string | null, writtenLsn?: Lsn): Kysely<Database> {
    return this.targetFor(who, writtenLsn) === 'standby' ? this.db : this.#primary;
  }

  /** The primary's WAL insert position now: at or past every commit that has returned. */
  async primaryPosition(): Promise<Lsn> {
    const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(this.#primary);
    return parseLsn(rows[0]?.lsn ?? '0/0');
  }

  /** The bound in ms a standby's lag may reach. */
  get maxLagMs(): number {
    return this.#maxLagMs;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#sampling;
    await this.#close();
  }
}
