import { percentile } from './bench-kit.ts';

/**
 * Open-loop load: requests start on a fixed schedule (one every 1/rate
 * seconds), whether or not earlier ones have been answered, and each one's
 * latency counts from when it was scheduled to start, not from when it was
 * sent. A stall therefore shows in the latencies of every request it
 * delayed, which closed-loop load (and a latency taken from the send) hides:
 * coordinated omission. In-flight requests are bounded so a stalled server
 * cannot grow the process without end; a request that could not start for
 * the bound still counts from its scheduled time.
 */
export interface OpenLoopOptions {
  /** Requests per second to schedule. */
  rate: number;
  seconds: number;
  /** One request; resolves when answered (a refusal is an answer; a throw is counted as an error). */
  send: (index: number) => Promise<void>;
  /** At most this many requests in flight; later ones wait their turn, their clock running. */
  maxInFlight?: number;
  /** For tests: the clock in ms, and how to wait until a time on it. */
  now?: () => number;
  sleepUntil?: (at: number) => Promise<void>;
}

export interface OpenLoopResult {
  scheduled: number;
  /** Answered requests per second over the run, from the first scheduled start to the last answer. */
  achievedRate: number;
  errors: number;
  /** Latencies from the scheduled start, ms, ascending. */
  latencies: number[];
  /** When the run started (epoch ms), and each answered request's scheduled start (ms after it) with its latency, in the order answered. */
  startedAt: number;
  timeline: [scheduledMs: number, latencyMs: number][];
}

const realNow = () => performance.now();
const realSleepUntil = (at: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const now = options.now ?? realNow;
  const sleepUntil = options.sleepUntil ?? realSleepUntil;
  const maxInFlight = options.maxInFlight ?? 1_000;
  const count = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1_000 / options.rate;
  const start = now();
  const startedAt = Date.now();
  const latencies: number[] = [];
  const timeline: [number, number][] = [];
  let errors = 0;
  let inFlight = 0;
  let freed: (() => void) | null = null;
  const running = new Set<Promise<void>>();
  for (let index = 0; index < count; index += 1) {
    const scheduledAt = start + index * interval;
    // Behind the schedule (a timer fires a millisecond late at best), send at once: sleeping
    // for every request would hold the rate under one a timer tick and read as latency.
    if (scheduledAt > now()) await sleepUntil(scheduledAt);
    while (inFlight >= maxInFlight) await new Promise<void>((resolve) => (freed = resolve));
    inFlight += 1;
    const request = options
      .send(index)
      .then(
        () => {
          const latency = now() - scheduledAt;
          latencies.push(latency);
          timeline.push([scheduledAt - start, latency]);
        },
        () => {
          errors += 1;
        },
      )
      .finally(() => {
        inFlight -= 1;
        running.delete(request);
        freed?.();
        freed = null;
      });
    running.add(request);
  }
  await Promise.all(running);
  const elapsedSeconds = (now() - start) / 1_000;
  latencies.sort((a, b) => a - b);
  return {
    scheduled: count,
    achievedRate: elapsedSeconds > 0 ? latencies.length / elapsedSeconds : 0,
    errors,
    latencies,
    startedAt,
    timeline,
  };
}

/** "open-loop at 50% of peak (N/s): p50 N ms, p99 N ms, p99.9 N ms", with the rate achieved and any errors. */
export function openLoopLine(share: number, result: OpenLoopResult, targetRate: number): string {
  const ms = (p: number) => percentile(result.latencies, p).toFixed(1);
  const errors = result.errors > 0 ? `, ${String(result.errors)} errors` : '';
  return (
    `open-loop at ${String(Math.round(share * 100))}% of peak (${targetRate.toFixed(0)}/s): ` +
    `p50 ${ms(50)} ms, p99 ${ms(99)} ms, p99.9 ${ms(99.9)} ms; achieved ${result.achievedRate.toFixed(0)}/s${errors}`
  );
}
