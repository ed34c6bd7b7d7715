/**
 * Where a read that tolerates a little lag goes: the standby of
 * DATABASE_READ_URL, or the primary. Pure rules; ReadReplica (read-replica.ts)
 * feeds them samples.
 */

/** A WAL position ("16/B374D848") as a number that orders as the WAL does. */
export type Lsn = bigint;

const LSN_TEXT = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** Reads Postgres's pg_lsn text form. */
export function parseLsn(text: string): Lsn {
  const parts = LSN_TEXT.exec(text);
  if (!parts) throw new RangeError(`"${text}" is not a WAL position`);
  return (BigInt(`0x${parts[1] ?? '0'}`) << 32n) | BigInt(`0x${parts[2] ?? '0'}`);
}

/** Postgres's text form of a WAL position, as parseLsn reads it. */
export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The primary's WAL insert position, read at `at` (ms, a monotonic clock) or later. */
export interface PrimarySample {
  at: number;
  lsn: Lsn;
}

/** What the last look at the standby found. */
export interface StandbySample {
  at: number;
  /** Replayed up to here; null when the server is not in recovery (a promoted standby has everything). */
  replayLsn: Lsn | null;
}

/**
 * How far behind the primary the standby is, in ms: from the oldest primary
 * sample it has not replayed to the standby's sample. 0 when it has replayed
 * all the primary had at the latest sample, so an idle pair is not lagging
 * however old its last transaction is. `primary` is oldest first. When even
 * the oldest kept sample is beyond the standby, the lag is at least its age.
 */
export function lagMs(primary: readonly PrimarySample[], standby: StandbySample): number {
  if (standby.replayLsn === null) return 0;
  const replayed = standby.replayLsn;
  const missing = primary.find((sample) => sample.lsn > replayed);
  return missing === undefined ? 0 : Math.max(0, standby.at - missing.at);
}

/**
 * The primary's WAL position as of a moment after a write that ended at
 * `wroteAt`: the first primary sample taken at or after it. Undefined while
 * there is none yet; the write's own commit is at or before that position.
 */
export function positionAfter(primary: readonly PrimarySample[], wroteAt: number): Lsn | undefined {
  return primary.find((sample) => sample.at >= wroteAt)?.lsn;
}

/** A person's last write as far as routing knows: when it ended, and once sampled, a WAL position past it. */
export interface LastWrite {
  wroteAt: number;
  lsn?: Lsn;
}

/**
 * The later of a write this process remembers and one whose position the
 * caller brought (from another process). A remembered write not sampled yet
 * stays unknown: it keeps the reader on the primary whatever came along.
 */
export function laterWrite(remembered: LastWrite | undefined, broughtLsn: Lsn | undefined): LastWrite | undefined {
  if (broughtLsn === undefined) return remembered;
  if (remembered === undefined) return { wroteAt: 0, lsn: broughtLsn };
  if (remembered.lsn === undefined || remembered.lsn >= broughtLsn) return remembered;
  return { ...remembered, lsn: broughtLsn };
}

export interface RouteInput {
  /** The latest look at the standby; null when there is none yet or the last look failed. */
  standby: StandbySample | null;
  /** Its lag when last looked at (see lagMs). */
  lagMs: number;
  /** The caller's last write; undefined for someone who has not written through this process. */
  lastWrite: LastWrite | undefined;
  now: number;
  /** DATABASE_READ_MAX_LAG_MS. */
  maxLagMs: number;
  /** A look older than this is no longer believed (the sampler stalled, the standby stopped answering). */
  staleAfterMs: number;
}

export type ReadTarget = 'standby' | 'primary';

/**
 * The routing rule. The standby serves the read only if it was seen lately,
 * is no further behind than the bound, and has replayed past the caller's
 * last write; a write whose position is not sampled yet keeps the caller on
 * the primary.
 */
export function readTarget(input: RouteInput): ReadTarget {
  const { standby, lastWrite } = input;
  if (standby === null || input.now - standby.at > input.staleAfterMs) return 'primary';
  if (input.lagMs > input.maxLagMs) return 'primary';
  if (lastWrite === undefined || standby.replayLsn === null) return 'standby';
  if (lastWrite.lsn === undefined) return 'primary';
  return standby.replayLsn >= lastWrite.lsn ? 'standby' : 'primary';
}
