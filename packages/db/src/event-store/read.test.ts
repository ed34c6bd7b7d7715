import fc from 'fast-check';
import type { ControlledTransaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../schema.ts';
import { createTestDatabase, type TestDatabase } from '../testing/database.ts';
import { appendToStream } from './append.ts';
import { readAll, readStream } from './read.ts';
import { START_OF_LOG, type GlobalCheckpoint, type StoredEvent } from './types.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 24 });
});
afterAll(() => database.drop());

let streamCounter = 0;
const freshStream = () => `reader-${++streamCounter}`;
const noted = (label: string) => ({ type: 'Noted', data: { label } });

/** A subscriber as a projection runner would be: it only ever resumes from its checkpoint. */
class Subscriber {
  seen: StoredEvent[] = [];
  checkpoints: GlobalCheckpoint[] = [START_OF_LOG];

  async poll(): Promise<void> {
    for (;;) {
      const batch = await readAll(database.db, { after: this.checkpoints.at(-1)!, limit: 3 });
      if (batch.events.length === 0) return;
      this.seen.push(...batch.events);
      this.checkpoints.push(batch.checkpoint);
    }
  }

  /**
   * Polls until `positions` are all seen. The safe order waits for the
   * oldest transaction open anywhere on the server (another database's
   * test, a pg_dump), so the first poll after a commit may see nothing yet;
   * a runner simply polls again. Bounded: 15 s, then the caller's
   * assertion reports what is missing.
   */
  async catchUp(positions: readonly number[]): Promise<void> {
    const until = Date.now() + 15_000;
    for (;;) {
      await this.poll();
      const seen = new Set(this.seen.map((event) => event.position));
      if (positions.every((position) => seen.has(position)) || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const order = (checkpoint: GlobalCheckpoint) =>
  [BigInt(checkpoint.transactionId), BigInt(checkpoint.position)] as const;
function strictlyIncreasing(checkpoints: GlobalCheckpoint[]): boolean {
  return checkpoints.every((checkpoint, index) => {
    if (index === 0) return true;
    const [txid, position] = order(checkpoint);
    const [prevTxid, prevPosition] = order(checkpoints[index - 1]!);
    return txid > prevTxid || (txid === prevTxid && position > prevPosition);
  });
}

describe('readStream', () => {
  it('reads a stream from a version on, in version order', async () => {
    const streamId = freshStream();
    await appendToStream(database.db, streamId, ['a', 'b', 'c', 'd'].map(noted), { expectedVersion: 0 });
    expect(
      (await readStream(database.db, streamId, { fromVersion: 2, maxCount: 2 })).map((event) => event.data.label),
    ).toEqual(['b', 'c']);
    expect(await readStream(database.db, 'no-such-stream')).toEqual([]);
  });
});

describe('readAll', () => {
  it('does not skip an event whose transaction took an earlier position but committed later', async () => {
    // A position-only reader would read `fast` (position n+1), checkpoint there,
    // and never see `slow` (position n) once it commits.
    const subscriber = new Subscriber();
    await subscriber.poll();
    const slow = await database.db.startTransaction().execute();
    const slowEvent = (await appendToStream(slow, freshStream(), [noted('slow')], { expectedVersion: 0 })).events[0]!;
    const fastEvent = (await appendToStream(database.db, freshStream(), [noted('fast')], { expectedVersion: 0 }))
      .events[0]!;
    expect(fastEvent.position).toBeGreaterThan(slowEvent.position);

    await subscriber.poll();
    expect(subscriber.seen.map((event) => event.data.label)).not.toContain('fast');

    await slow.commit().execute();
    await subscriber.catchUp([slowEvent.position, fastEvent.position]);
    expect(
      subscriber.seen.map((event) => event.data.label).filter((label) => label === 'slow' || label === 'fast'),
    ).toEqual(['slow', 'fast']);
    expect(strictlyIncreasing(subscriber.checkpoints)).toBe(true);
  });

  it('sees every committed event exactly once, and no rolled-back one, under any interleaving', async () => {
    type Step = { kind: 'append'; tx: number } | { kind: 'end'; tx: number } | { kind: 'poll' };
    const scenario = fc
      .record({
        transactions: fc.array(
          fc.record({
            appends: fc.integer({ min: 1, max: 3 }),
            commits: fc.integer({ min: 0, max: 3 }).map((roll) => roll > 0),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        picks: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        polls: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      })
      .map(({ transactions, picks, polls }) => {
        // Interleave the transactions' steps in the order the picks choose, keeping each one's own order.
        const remaining = transactions.map((transaction, tx): Step[] => [
          ...Array.from({ length: transaction.appends }, (): Step => ({ kind: 'append', tx })),
          { kind: 'end', tx },
        ]);
        const steps: Step[] = [];
        for (let index = 0; remaining.some((queue) => queue.length > 0); index++) {
          const open = remaining.filter((queue) => queue.length > 0);
          steps.push(open[(picks[index % picks.length] ?? 0) % open.length]!.shift()!);
          if (polls[index % polls.length]) steps.push({ kind: 'poll' });
        }
        return { transactions, steps };
      });

    await fc.assert(
      fc.asyncProperty(scenario, async ({ transactions, steps }) => {
        const subscriber = new Subscriber();
        await subscriber.poll();
        const open = new Map<number, ControlledTransaction<Database>>();
        const streams = transactions.map(() => freshStream());
        const versions = transactions.map(() => 0);
        const written = transactions.map((): number[] => []);
        for (const step of steps) {
          if (step.kind === 'poll') {
            await subscriber.poll();
          } else if (step.kind === 'append') {
            const trx = open.get(step.tx) ?? (await database.db.startTransaction().execute());
            open.set(step.tx, trx);
            const result = await appendToStream(trx, streams[step.tx]!, [noted(`${step.tx}`)], {
              expectedVersion: versions[step.tx]!,
            });
            versions[step.tx] = result.version;
            written[step.tx]!.push(result.events[0]!.position);
          } else {
            const trx = open.get(step.tx)!;
            await (transactions[step.tx]!.commits ? trx.commit() : trx.rollback()).execute();
          }
        }
        const committed = written
          .filter((_, tx) => transactions[tx]!.commits)
          .flat()
          .sort((a, b) => a - b);
        await subscriber.catchUp(committed);
        const mine = new Set(streams);
        const seen = subscriber.seen.filter((event) => mine.has(event.streamId)).map((event) => event.position);
        expect([...seen].sort((a, b) => a - b)).toEqual(committed);
        expect(new Set(subscriber.seen.map((event) => event.position)).size).toBe(subscriber.seen.length);
        expect(strictlyIncreasing(subscriber.checkpoints)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
