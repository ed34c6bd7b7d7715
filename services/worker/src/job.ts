import type { Database } from '@peeks/db';
import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Db, Job, PgBoss, Queue } from 'pg-boss';

/** A queue of the product and how its jobs are retried and expired. */
export type QueueDefinition = Queue;

/**
 * Every product queue's jobs send a heartbeat: a job whose worker died
 * (SIGKILL, lost machine) is failed and retried after this many seconds
 * without one, pg-boss's minimum, instead of after its expiry time.
 */
export const JOB_HEARTBEAT_SECONDS = 10;

/** A product queue: its name and retry policy, with the heartbeat every product job has. */
export const productQueue = (name: string, policy: Omit<Queue, 'name' | 'heartbeatSeconds'>): QueueDefinition => ({
  name,
  ...policy,
  heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
});

/**
 * A job id derived from what caused the job (an event, a delivery and its
 * attempt): enqueueing the same cause twice inserts nothing the second time.
 */
export function jobId(...cause: (string | number)[]): string {
  const hex = createHash('sha256').update(cause.join('\n')).digest('hex');
  // Shaped as a version-8 (custom) UUID, the type pg-boss keeps ids in.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** pg-boss's statements run on a Kysely handle: inside a transaction, they are part of it. */
export function bossConnection(db: Kysely<Database>): Db {
  return {
    executeSql: async (text, values) => ({ rows: (await db.executeQuery(CompiledQuery.raw(text, values ?? []))).rows }),
  };
}

/**
 * Runs `handle` for every job of `queue`, up to `batchSize` at once in
 * each of `localConcurrency` pollers of this process, fetching again at once while batches come back full. A job
 * whose handler throws is failed alone, and retried per its queue's
 * policy; the rest of its batch completes.
 */
export async function workEach<Data extends object>(
  boss: PgBoss,
  queue: string,
  handle: (job: Job<Data>) => Promise<void>,
  options: { batchSize?: number; localConcurrency?: number; pollingIntervalSeconds?: number } = {},
): Promise<void> {
  await boss.work<Data>(
    queue,
    {
      batchSize: options.batchSize ?? 20,
      localConcurrency: options.localConcurrency ?? 1,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    },
    async (jobs) => {
      const outcomes = await Promise.allSettled(jobs.map(handle));
      for (const [index, outcome] of outcomes.entries()) {
        const job = jobs[index];
        if (outcome.status === 'rejected' && job) await boss.fail(queue, job.id, { message: String(outcome.reason) });
      }
    },
  );
}
