import { sql, type Kysely, type Transaction } from 'kysely';
import { readAll } from '../event-store/read.ts';
import { START_OF_LOG, type GlobalCheckpoint, type StoredEvent } from '../event-store/types.ts';
import type { Database } from '../schema.ts';

/**
 * A read model kept up to date after the fact (statistics, outboxes, search)
 * rather than in the transaction that appends. `apply` runs in the same
 * transaction that advances the checkpoint, so a batch is applied exactly
 * once: a crash rolls back both, and the next run starts from the old
 * checkpoint.
 */
export interface AsyncProjection {
  name: string;
  apply(trx: Transaction<Database>, events: readonly StoredEvent[]): Promise<void>;
}

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
export async function runProjectionBatch(
  db: Kysely<Database>,
  projection: AsyncProjection,
  batchSize = 500,
): Promise<number> {
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
    const { events, checkpoint } = await readAll(trx, { after, limit: batchSize });
    if (events.length === 0) return 0;
    await projection.apply(trx, events);
    await trx
      .updateTable('projection_checkpoints')
      .set({ transaction_id: checkpoint.transactionId, position: checkpoint.position, updated_at: new Date() })
      .where('name', '=', projection.name)
      .execute();
    return events.length;
  });
}

/** Runs batches until the projection has caught up with every event it can safely read. */
export async function catchUp(db: Kysely<Database>, projection: AsyncProjection, batchSize = 500): Promise<number> {
  let applied = 0;
  for (;;) {
    const batch = await runProjectionBatch(db, projection, batchSize);
    if (batch === 0) return applied;
    applied += batch;
  }
}

export interface ProjectionRunner {
  stop(): Promise<void>;
}

/**
 * Keeps projections caught up: polls every `intervalMs` (a LISTEN/NOTIFY
 * wake-up can shorten the wait later without changing the contract).
 */
export function startProjectionRunner(
  db: Kysely<Database>,
  projections: readonly AsyncProjection[],
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
