import { poolConnection, type Database } from '@peeks/db';
import type { LedgerJob, LedgerJobs } from '@peeks/ledger-store';
import type { Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { PgBoss } from 'pg-boss';
import { bossConnection } from './queue.ts';
import { jobsCausedBy } from './ledger-jobs.ts';
import { PRODUCT_QUEUES } from './queues.ts';

/**
 * Where the product puts work for later. Jobs are inserted through the
 * caller's database handle, so a job enqueued inside a transaction commits
 * or rolls back with it (no dual writes), and under an id taken from its
 * cause, so a retried cause does not enqueue it twice.
 */
export class JobQueue implements LedgerJobs {
  readonly boss: PgBoss;

  constructor(boss: PgBoss) {
    this.boss = boss;
  }

  causedBy(txId: string, events: Parameters<LedgerJobs['causedBy']>[1]): LedgerJob[] {
    return jobsCausedBy(txId, events);
  }

  async enqueue(db: Kysely<Database>, jobs: readonly LedgerJob[]): Promise<void> {
    const byQueue = new Map<string, LedgerJob[]>();
    for (const job of jobs) {
      const ofQueue = byQueue.get(job.queue) ?? [];
      ofQueue.push(job);
      byQueue.set(job.queue, ofQueue);
    }
    for (const [queue, ofQueue] of byQueue) {
      await this.boss.insert(
        queue,
        ofQueue.map((job) => ({
          id: job.id,
          data: job.data,
          ...(job.startAfter ? { startAfter: job.startAfter } : {}),
        })),
        { db: bossConnection(db) },
      );
    }
  }
}

/** Creates the product's queues, or brings their policies up to date; safe from any number of processes. */
export async function createProductQueues(boss: PgBoss): Promise<void> {
  for (const queue of PRODUCT_QUEUES) {
    if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
    else await boss.createQueue(queue.name, queue);
  }
}

/**
 * A pg-boss that only sends: what the API needs to enqueue jobs when the
 * workers run in other processes. It polls nothing and schedules nothing.
 */
export async function openJobQueue(
  databaseUrl: string,
  log: Logger,
): Promise<{ jobs: JobQueue; close: () => Promise<void> }> {
  const boss = new PgBoss({
    // pg-boss hands its options to pg.Pool: with a multi-host URL, the Client that finds the writable host.
    ...poolConnection(databaseUrl),
    schema: 'pgboss',
    application_name: 'peeks-jobs',
    max: 2,
    supervise: false,
    schedule: false,
  });
  boss.on('error', (error: unknown) => {
    log.error({ err: error }, 'job queue error');
  });
  await boss.start();
  await createProductQueues(boss);
  return { jobs: new JobQueue(boss), close: () => boss.stop({ graceful: false }) };
}
