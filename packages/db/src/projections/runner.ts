import { sql, type Kysely, type Transaction } from 'kysely';
import { readAll } from '../event-store/read.ts';
import { START_OF_LOG, type GlobalCheckpoint, type StoredEvent } from '../event-store/types.ts';
import type { Database } from '../schema.ts';

/** Reads up to `limit` events after `after`, in readAll's safe order, as a projection needs them. */
export type EventReader<Item> = (db: Kysely<Database>, after: GlobalCheckpoint, limit: number) => Promise<Item[]>;

/**
 * A read model kept up to date after the fact (statistics, outboxes, search)
 * rather than in the transaction that appends. `apply` runs in the same
 * transaction that advances the checkpoint, so a batch is applied exactly
 * once: a crash rolls back both, and the next run starts from the old
 * checkpoint. It is given whole events unless it reads less (`read`); each
 * item carries its place in the order, from which the checkpoint moves.
 */
export type AsyncProjection<Item extends GlobalCheckpoint = StoredEvent> = {
  name: string;
  /** Events per batch; 500 unless said. */
  batchSize?: number;
  apply(trx: Transaction<Database>, items: readonly Item[]): Promise<void>;
} & (StoredEvent extends Item ? { read?: EventReader<Item> } : { read: EventReader<Item> });

const DEFAULT_BATCH = 500;

const readEvents: EventReader<StoredEvent> = async (db, after, limit) => (await readAll(db, { after, limit })).events;

export async function readCheckpoint(db: Kysely<Database>, name: string): Promise<GlobalCheckpoint> {
  const row = await db
    .selectFrom('projection_checkpoints')
    .select(['transaction_id', 'position'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? { transactionId: row.transaction_id, position: row.position } : START_OF_LOG;
}

/**
 * Applies the next batch of events after the projection's checkpoint and
 * moves the checkpoint past them; returns how many were applied. The
 * checkpoint row is locked first, so copies of the runner in several
 * processes take turns instead of applying a batch twice.
 */
export async function runProjectionBatch<Item extends GlobalCheckpoint>(
  db: Kysely<Database>,
  projection: AsyncProjection<Item>,
  batchSize = projection.batchSize ?? DEFAULT_BATCH,
): Promise<number> {
  // Safe: the type lets `read` be left out only when whole events are what the projection takes.
  const read = (projection.read ?? readEvents) as EventReader<Item>;
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projection_checkpoints')
      .values({
        name: projection.name,
        transaction_id: START_OF_LOG.transactionId,
        position: START_OF_LOG.position,
        updated_at: new Date(),
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    await sql`SELECT 1 FROM projection_checkpoints WHERE name = ${projection.name} FOR UPDATE`.execute(trx);
    const after = await readCheckpoint(trx, projection.name);
    const items = await read(trx, after, batchSize);
    const last = items.at(-1);
    if (!last) return 0;
    await projection.apply(trx, items);
    await trx
      .updateTable('projection_checkpoints')
      .set({ transaction_id: last.transactionId, position: last.position, updated_at: new Date() })
      .where('name', '=', projection.name)
      .execute();
    return items.length;
  });
}

/**
 * Runs batches until the projection has caught up with every event it can
 * safely read: a batch shorter than asked for says so, without one more
 * transaction to find nothing.
 */
export async function catchUp<Item extends GlobalCheckpoint>(
  db: Kysely<Database>,
  projection: AsyncProjection<Item>,
  batchSize = projection.batchSize ?? DEFAULT_BATCH,
): Promise<number> {
  let applied = 0;
  for (;;) {
    const batch = await runProjectionBatch(db, projection, batchSize);
    applied += batch;
    if (batch < batchSize) return applied;
  }
}

export interface ProjectionRunner {
  stop(): Promise<void>;
}

/**
 * Keeps projections caught up: polls every `intervalMs` (a LISTEN/NOTIFY
 * wake-up can shorten the wait later without changing the contract).
 */
export function startProjectionRunner<Item extends GlobalCheckpoint>(
  db: Kysely<Database>,
  projections: readonly AsyncProjection<Item>[],
  options: { intervalMs?: number; onError: (error: unknown, projection: string) => void },
): ProjectionRunner {
  const intervalMs = options.intervalMs ?? 1000;
  const state = { stopped: false };
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!state.stopped) {
      for (const projection of projections) {
        try {
          await catchUp(db, projection);
        } catch (error) {
          options.onError(error, projection.name);
        }
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs).unref();
      });
    }
  })();
  return {
    async stop() {
      state.stopped = true;
      wake?.();
      await loop;
    },
  };
}
