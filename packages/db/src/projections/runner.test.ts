import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream } from '../event-store/append.ts';
import { readAll } from '../event-store/read.ts';
import { createTestDatabase, type TestDatabase } from '../testing/database.ts';
import { catchUp, readCheckpoint, runProjectionBatch, startProjectionRunner, type AsyncProjection } from './runner.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 6 });
  // The read model of these tests: one row per event seen. Its primary key makes a double apply fail loudly.
  await sql`CREATE TABLE seen_events (position bigint PRIMARY KEY)`.execute(database.db);
});
afterAll(() => database.drop());

const seen: AsyncProjection = {
  name: 'seen-events',
  async apply(trx, events) {
    await sql`INSERT INTO seen_events SELECT unnest(${events.map((event) => event.position)}::bigint[])`.execute(trx);
  },
};

async function seenCount(): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM seen_events`.execute(database.db);
  return rows[0]?.count ?? 0;
}
async function eventCount(): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM events`.execute(database.db);
  return rows[0]?.count ?? 0;
}
/**
 * Waits until every event is readable: readAll stops at the oldest running
 * transaction of the whole server, which other databases' tests hold open
 * now and then.
 */
async function allReadable(): Promise<void> {
  const total = await eventCount();
  await expect
    .poll(async () => (await readAll(database.db, { limit: 10_000 })).events.length, { timeout: 30_000, interval: 50 })
    .toBe(total);
}
const append = (stream: string) =>
  appendToStream(database.db, stream, [{ type: 'Noted', data: {} }], { expectedVersion: 'any' });

describe('asynchronous projection runner', () => {
  it('resumes from its checkpoint after a batch fails half-way, applying nothing twice', async () => {
    for (let index = 0; index < 12; index++) await append(`runner-a-${index % 3}`);
    await allReadable();
    let calls = 0;
    const failsOnSecondBatch: AsyncProjection = {
      name: seen.name,
      async apply(trx, events) {
        await seen.apply(trx, events);
        if (++calls === 2) throw new Error('crash in the middle of a batch');
      },
    };
    await expect(catchUp(database.db, failsOnSecondBatch, 5)).rejects.toThrow('crash');
    expect(await seenCount()).toBe(5);
    expect((await readCheckpoint(database.db, seen.name)).position).toBeGreaterThan(0);

    await catchUp(database.db, seen, 5);
    expect(await seenCount()).toBe(await eventCount());
  });

  it('does not skip an event whose transaction took its position early but committed late', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const late = database.db.transaction().execute(async (trx) => {
      await appendToStream(trx, 'runner-late', [{ type: 'Noted', data: {} }], { expectedVersion: 0 });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await append('runner-early');
    await catchUp(database.db, seen);
    release();
    await late;
    await allReadable();
    await catchUp(database.db, seen);
    expect(await seenCount()).toBe(await eventCount());
  });

  it('lets several runners share a projection without applying a batch twice', async () => {
    for (let index = 0; index < 40; index++) await append(`runner-b-${index % 4}`);
    const onError = (error: unknown) => {
      throw error;
    };
    const runners = [1, 2, 3].map(() => startProjectionRunner(database.db, [seen], { intervalMs: 10, onError }));
    await Promise.all(Array.from({ length: 20 }, (_, index) => append(`runner-c-${index % 2}`)));
    await allReadable();
    const total = await eventCount();
    await expect.poll(seenCount, { timeout: 30_000, interval: 20 }).toBe(total);
    await Promise.all(runners.map((runner) => runner.stop()));
    expect(await runProjectionBatch(database.db, seen)).toBe(0);
    expect(await seenCount()).toBe(await eventCount());
  });
});
