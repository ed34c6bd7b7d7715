import { describe, expect, it } from 'vitest';
import { openLoopLine, runOpenLoop } from './open-loop.ts';

/** A clock that moves only when a request works or the schedule waits: the run is exact. */
function virtualClock() {
  const clock = { t: 0 };
  return {
    clock,
    now: () => clock.t,
    // Answers already given are taken (their callbacks run) before the clock moves on.
    sleepUntil: async (at: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      clock.t = Math.max(clock.t, at);
    },
  };
}

describe('open-loop load', () => {
  it('counts each latency from the scheduled start, so a stall shows in every request it delayed', async () => {
    const { clock, now, sleepUntil } = virtualClock();
    const result = await runOpenLoop({
      rate: 10,
      seconds: 1,
      maxInFlight: 1,
      now,
      sleepUntil,
      send: (index) => {
        clock.t += index === 3 ? 500 : 5;
        return Promise.resolve();
      },
    });
    expect(result.scheduled).toBe(10);
    // From the send, these would read 5 ms but one; from the schedule, the stall delays four more.
    expect(result.latencies).toEqual([5, 5, 5, 5, 25, 120, 215, 310, 405, 500]);
    expect(result.achievedRate).toBeCloseTo(10 / 0.905, 5);
    // The timeline says when the stall struck: the fourth request's schedule, and every one after it.
    expect(result.timeline.slice(3, 6)).toEqual([
      [300, 500],
      [400, 405],
      [500, 310],
    ]);
  });

  it('keeps to the schedule when its timer wakes late, sending the requests due at once', async () => {
    const clock = { t: 0 };
    const result = await runOpenLoop({
      rate: 2_000,
      seconds: 1,
      now: () => clock.t,
      // A timer a millisecond late every time, as setTimeout is at best.
      sleepUntil: async (at) => {
        await new Promise((resolve) => setImmediate(resolve));
        clock.t = Math.max(clock.t, at) + 1;
      },
      send: () => Promise.resolve(),
    });
    expect(result.scheduled).toBe(2_000);
    // Each request waits at most the timer's lateness, however many came before it.
    expect(result.latencies.at(-1)).toBeLessThanOrEqual(1);
    expect(result.achievedRate).toBeGreaterThan(1_900);
  });

  it('counts a failed request as an error, not a latency, and prints one line per rate', async () => {
    const { now, sleepUntil } = virtualClock();
    const result = await runOpenLoop({
      rate: 4,
      seconds: 1,
      now,
      sleepUntil,
      send: (index) => (index === 1 ? Promise.reject(new Error('refused')) : Promise.resolve()),
    });
    expect(result).toMatchObject({ scheduled: 4, errors: 1 });
    expect(result.latencies).toHaveLength(3);
    expect(openLoopLine(0.5, result, 4)).toMatch(
      /^open-loop at 50% of peak \(4\/s\): p50 0\.0 ms, p99 0\.0 ms, p99\.9 0\.0 ms; achieved \d+\/s, 1 errors$/,
    );
  });
});
