import type { Job, PgBoss } from 'pg-boss';

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
