/**
 * When a failed delivery is tried again: the Standard Webhooks schedule,
 * the delay before each attempt after a failure of the one before it
 * (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h):
 * ten attempts over about three and a half days.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5e3,
  5 * 60e3,
  30 * 60e3,
  2 * 3600e3,
  5 * 3600e3,
  10 * 3600e3,
  14 * 3600e3,
  20 * 3600e3,
  24 * 3600e3,
];

/** A Retry-After longer than the schedule's longest wait is cut to it: an endpoint cannot park a delivery for ever. */
const LONGEST_WAIT_MS = 24 * 3600e3;

/**
 * The wait a Retry-After header asks for (RFC 9110: delay-seconds or an
 * HTTP date), in milliseconds from `now`; null when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  let wait: number;
  if (/^\d+$/.test(value)) wait = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    wait = at - now.getTime();
  }
  return Math.min(Math.max(wait, 0), LONGEST_WAIT_MS);
}

/**
 * The wait before the attempt at `step` of the schedule (0 is the first),
 * or null when the schedule has run out; a Retry-After later than the
 * schedule's wait is honoured.
 */
export function waitBefore(schedule: readonly number[], step: number, retryAfter: number | null): number | null {
  const scheduled = schedule[step];
  if (scheduled === undefined) return null;
  return Math.max(scheduled, retryAfter ?? 0);
}
