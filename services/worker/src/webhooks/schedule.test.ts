import { describe, expect, it } from 'vitest';
import { RETRY_SCHEDULE_MS, retryAfterMs, waitBefore } from './schedule.ts';

const now = new Date('2026-11-21T12:00:00Z');

describe('the retry schedule', () => {
  it('is the Standard Webhooks one, and runs out after ten attempts', () => {
    expect(RETRY_SCHEDULE_MS.map((wait) => wait / 1000)).toEqual([
      0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
    ]);
    expect(waitBefore(RETRY_SCHEDULE_MS, 1, null)).toBe(5000);
    expect(waitBefore(RETRY_SCHEDULE_MS, 10, null)).toBeNull();
  });

  it('honours a Retry-After later than the schedule, not an earlier one', () => {
    expect(waitBefore(RETRY_SCHEDULE_MS, 1, 60_000)).toBe(60_000);
    expect(waitBefore(RETRY_SCHEDULE_MS, 2, 60_000)).toBe(300_000);
  });

  it('reads Retry-After as seconds or an HTTP date, caps it at a day, and ignores nonsense', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 12:10:00 GMT', now)).toBe(600_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('9999999', now)).toBe(24 * 3600e3);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
