import type { Logger } from '@peeks/runtime';
import { isDatabaseUnavailable } from './unavailable.ts';

/** The first pause after a refused start, doubled each time up to the last. */
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5_000;

export interface DatabaseWait {
  /** How long to keep trying; past it, the last failure stands. */
  waitMs: number;
  log: Pick<Logger, 'warn'>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Runs `attempt` (a process's first use of the database: its migrations)
 * until it succeeds or fails for another reason than a database away, with a
 * growing pause between tries, for at most `waitMs`. A process started while
 * a failover is under way, or before its database, then waits for it instead
 * of exiting and leaving the restart to a supervisor.
 */
export async function untilDatabaseAnswers<T>(attempt: () => Promise<T>, wait: DatabaseWait): Promise<T> {
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = wait.now ?? Date.now;
  const giveUpAt = now() + wait.waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || now() + pause > giveUpAt) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      wait.log.warn({ reason, retryInMs: pause }, 'database not reachable yet; waiting for it');
      await sleep(pause);
    }
  }
}
