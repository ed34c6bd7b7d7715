import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database.ts';
import { appendToStream } from './append.ts';
import { StreamVersionConflict } from './errors.ts';
import { readAll, readStream } from './read.ts';
import { verifyStream } from './verify.ts';
import type { GlobalCheckpoint, StoredEvent } from './types.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** One command of a generated sequence: an append with a right, stale or future expectation. */
const command = fc.record({
  stream: fc.integer({ min: 0, max: 2 }),
  expectation: fc.constantFrom('exact', 'stale', 'ahead', 'any'),
  size: fc.integer({ min: 1, max: 3 }),
  insideRolledBackTransaction: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
});

let run = 0;

describe('event store against a model', () => {
  it('matches a plain model of stream versions for any sequence of appends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        run += 1;
        const streams = [0, 1, 2].map((index) => `model-${run}-${index}`);
        const model = [0, 0, 0];
        const written: string[][] = [[], [], []];
        let label = 0;

        for (const { stream, expectation, size, insideRolledBackTransaction } of commands) {
          const current = model[stream]!;
          const expectedVersion =
            expectation === 'exact'
              ? current
              : expectation === 'any'
                ? ('any' as const)
                : expectation === 'ahead'
                  ? current + 1
                  : Math.max(0, current - 1);
          const labels = Array.from({ length: size }, () => `e${++label}`);
          const append = (db: typeof database.db) =>
            appendToStream(
              db,
              streams[stream]!,
              labels.map((text) => ({ type: 'Noted', data: { text } })),
              { expectedVersion },
            );
          const acceptable = expectedVersion === 'any' || expectedVersion === current;

          if (insideRolledBackTransaction) {
            await database.db
              .transaction()
              .execute(async (trx) => {
                await append(trx);
                throw new Error('roll back');
              })
              .catch((error: unknown) => {
                if (acceptable) expect(error).toMatchObject({ message: 'roll back' });
                else expect(error).toBeInstanceOf(StreamVersionConflict);
              });
            continue;
          }
          const outcome = await append(database.db).catch((error: unknown) => error);
          if (acceptable) {
            expect(outcome).toMatchObject({ version: current + size });
            model[stream] = current + size;
            written[stream]!.push(...labels);
          } else {
            expect(outcome).toBeInstanceOf(StreamVersionConflict);
          }
        }

        for (const [index, streamId] of streams.entries()) {
          const events = await readStream(database.db, streamId);
          expect(events.map((event) => event.streamVersion)).toEqual(
            Array.from({ length: model[index]! }, (_, at) => at + 1),
          );
          expect(events.map((event) => event.data.text)).toEqual(written[index]);
          expect((await verifyStream(database.db, streamId)).breaks).toEqual([]);
        }

        // readAll shows only events older than every transaction still open on
        // the server (its safe order), so another database's long transaction
        // holds them back for a while: read on until they are all seen.
        const seen: StoredEvent[] = [];
        let checkpoint: GlobalCheckpoint | undefined;
        for (let rounds = 0; seen.length < written.flat().length && rounds < 200; rounds += 1) {
          const batch = await readAll(database.db, { ...(checkpoint ? { after: checkpoint } : {}), limit: 50 });
          if (batch.events.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
          seen.push(...batch.events.filter((event) => streams.includes(event.streamId)));
          checkpoint = batch.checkpoint;
        }
        expect(seen.map((event) => event.data.text).sort()).toEqual(written.flat().sort());
      }),
      { numRuns: 40 },
    );
  });
});
