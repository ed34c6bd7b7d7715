import type { Database } from '@peeks/db';
import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Db, Queue } from 'pg-boss';

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
