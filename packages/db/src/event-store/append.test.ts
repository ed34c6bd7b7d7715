import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database.ts';
import { appendToStream } from './append.ts';
import { InvalidEvent, StreamVersionConflict } from './errors.ts';
import { GENESIS_HASH } from './hash-chain.ts';
import { readStream } from './read.ts';
import { streamHeads } from './stream-heads.ts';
import { verifyStream } from './verify.ts';
import type { JsonObject } from './types.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
});
afterAll(() => database.drop());

let streamCounter = 0;
const freshStream = (prefix = 'wallet') => `${prefix}-${process.pid}-${++streamCounter}`;
const deposited = (amount: number) => ({ type: 'Deposited', data: { amount, currency: 'USD' } });

async function eventCount(streamId: string): Promise<number> {
  const row = await database.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('stream_id', '=', streamId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('appendToStream', () => {
  it('starts a stream at version 1 and chains each event to the one before', async () => {
    const streamId = freshStream();
    const first = await appendToStream(database.db, streamId, [deposited(100), deposited(250)], {
      expectedVersion: 0,
      metadata: { actor: 'user-1', requestId: 'req-1', idempotencyKey: 'key-1', clientIp: '127.0.0.1' },
    });
    expect(first.version).toBe(2);
    expect(first.events.map((event) => event.streamVersion)).toEqual([1, 2]);
    expect(first.events[0]!.prevHash).toBe(GENESIS_HASH);
    expect(first.events[1]!.prevHash).toBe(first.events[0]!.hash);
    expect(first.events[1]!.position).toBeGreaterThan(first.events[0]!.position);

    const next = await appendToStream(database.db, streamId, [deposited(5)], { expectedVersion: 2 });
    expect(next.version).toBe(3);
    expect(next.events[0]!.prevHash).toBe(first.events[1]!.hash);

    const stored = await readStream(database.db, streamId);
    expect(stored.map((event) => event.data)).toEqual([
      { amount: 100, currency: 'USD' },
      { amount: 250, currency: 'USD' },
      { amount: 5, currency: 'USD' },
    ]);
    expect(stored[0]!.metadata).toEqual({
      actor: 'user-1',
      requestId: 'req-1',
      idempotencyKey: 'key-1',
      requestFingerprint: null,
      clientIp: '127.0.0.1',
    });
    expect(stored[2]!.metadata).toEqual({
      actor: null,
      requestId: null,
      idempotencyKey: null,
      requestFingerprint: null,
      clientIp: null,
    });
    expect(stored).toEqual([...first.events, ...next.events]);
  });

  it('refuses a wrong expected version with a typed conflict and writes nothing', async () => {
    const streamId = freshStream();
    await appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: 0 });

    await expect(appendToStream(database.db, streamId, [deposited(2)], { expectedVersion: 0 })).rejects.toBeInstanceOf(
      StreamVersionConflict,
    );
    const stale = await appendToStream(database.db, streamId, [deposited(2)], { expectedVersion: 5 }).catch(
      (error: unknown) => error,
    );
    expect(stale).toBeInstanceOf(StreamVersionConflict);
    expect(stale).toMatchObject({ streamId, expectedVersion: 5, actualVersion: 1 });
    await expect(
      appendToStream(database.db, freshStream(), [deposited(2)], { expectedVersion: 1 }),
    ).rejects.toBeInstanceOf(StreamVersionConflict);
    expect(await eventCount(streamId)).toBe(1);
  });

  it("appends at whatever version the stream is with 'any'", async () => {
    const streamId = freshStream();
    await appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: 'any' });
    const second = await appendToStream(database.db, streamId, [deposited(2)], { expectedVersion: 'any' });
    expect(second.version).toBe(2);
  });

  it('lets exactly one of many concurrent appends with the same expected version win', async () => {
    for (let round = 0; round < 5; round++) {
      const streamId = freshStream();
      await appendToStream(database.db, streamId, [deposited(0)], { expectedVersion: 0 });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, (_, writer) =>
          appendToStream(database.db, streamId, [deposited(writer + 1)], { expectedVersion: 1 }),
        ),
      );
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.every((outcome) => outcome.reason instanceof StreamVersionConflict)).toBe(true);
      expect(await eventCount(streamId)).toBe(2);
      expect((await verifyStream(database.db, streamId)).breaks).toEqual([]);
    }
  });

  it('lets exactly one of many concurrent creators of the same new stream win', async () => {
    const streamId = freshStream();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, writer) =>
        appendToStream(database.db, streamId, [deposited(writer)], { expectedVersion: 0 }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await eventCount(streamId)).toBe(1);
  });

  it("never loses an 'any' append under concurrency", async () => {
    const streamId = freshStream();
    await Promise.all(
      Array.from({ length: 10 }, (_, writer) =>
        appendToStream(database.db, streamId, [deposited(writer)], { expectedVersion: 'any' }),
      ),
    );
    const events = await readStream(database.db, streamId);
    expect(events.map((event) => event.streamVersion)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(events.map((event) => event.data.amount).sort((a, b) => Number(a) - Number(b))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
  });

  it('leaves nothing behind when the surrounding transaction rolls back', async () => {
    const streamId = freshStream();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await appendToStream(trx, streamId, [deposited(1)], { expectedVersion: 0 });
        throw new Error('projection failed');
      }),
    ).rejects.toThrow('projection failed');
    expect(await eventCount(streamId)).toBe(0);
    const retried = await appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: 0 });
    expect(retried.version).toBe(1);
  });

  it('is not misled by a cached head from a transaction that rolled back', async () => {
    const streamId = freshStream();
    await appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: 0 });
    await database.db
      .transaction()
      .execute(async (trx) => {
        await appendToStream(trx, streamId, [deposited(2)], { expectedVersion: 1 });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(streamHeads.get(streamId)?.version).toBe(2);

    const phantom = await appendToStream(database.db, streamId, [deposited(3)], { expectedVersion: 2 }).catch(
      (error: unknown) => error,
    );
    expect(phantom).toMatchObject({ name: 'StreamVersionConflict', actualVersion: 1 });
    const real = await appendToStream(database.db, streamId, [deposited(3)], { expectedVersion: 1 });
    expect(real.version).toBe(2);
    expect((await verifyStream(database.db, streamId)).breaks).toEqual([]);
  });

  it('is not misled by a cached head that another process has moved past', async () => {
    const streamId = freshStream();
    const first = await appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: 0 });
    await appendToStream(database.db, streamId, [deposited(2)], { expectedVersion: 1 });
    // As another process would leave it: this process still believes version 1.
    streamHeads.set(streamId, { version: 1, hash: first.events[0]!.hash });

    const stale = await appendToStream(database.db, streamId, [deposited(3)], { expectedVersion: 1 }).catch(
      (error: unknown) => error,
    );
    expect(stale).toMatchObject({ name: 'StreamVersionConflict', actualVersion: 2 });
    expect((await appendToStream(database.db, streamId, [deposited(3)], { expectedVersion: 2 })).version).toBe(3);
    expect(await eventCount(streamId)).toBe(3);
  });

  it('writes all of a multi-event append or none of it when writers race', async () => {
    const streamId = freshStream();
    await appendToStream(database.db, streamId, [deposited(0)], { expectedVersion: 0 });
    const outcomes = await Promise.allSettled(
      [1, 2, 3, 4].map((batch) =>
        appendToStream(
          database.db,
          streamId,
          Array.from({ length: batch }, () => deposited(batch)),
          { expectedVersion: 1 },
        ),
      ),
    );
    const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const stored = await readStream(database.db, streamId);
    expect(new Set(stored.slice(1).map((event) => event.data.amount)).size).toBe(1);
    expect(stored).toHaveLength(1 + Number(stored[1]!.data.amount));
    expect((await verifyStream(database.db, streamId)).breaks).toEqual([]);
  });

  it('refuses events that cannot be stored faithfully, writing nothing', async () => {
    const streamId = freshStream();
    await expect(appendToStream(database.db, streamId, [], { expectedVersion: 0 })).rejects.toBeInstanceOf(
      InvalidEvent,
    );
    await expect(
      appendToStream(database.db, streamId, [{ type: 'Noted', data: { text: 'nul\u0000byte' } }], {
        expectedVersion: 0,
      }),
    ).rejects.toBeInstanceOf(InvalidEvent);
    await expect(
      appendToStream(database.db, streamId, [{ type: 'Noted', data: { text: 'lone \ud800' } }], { expectedVersion: 0 }),
    ).rejects.toBeInstanceOf(InvalidEvent);
    await expect(
      appendToStream(database.db, streamId, [{ type: 'Noted', data: { ratio: Number.NaN } }], { expectedVersion: 0 }),
    ).rejects.toBeInstanceOf(InvalidEvent);
    await expect(appendToStream(database.db, streamId, [deposited(1)], { expectedVersion: -1 })).rejects.toBeInstanceOf(
      InvalidEvent,
    );
    expect(await eventCount(streamId)).toBe(0);
  });

  it('reads back exactly the JSON it was given, and the chain proves it', async () => {
    const storableString = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));
    const data = fc.dictionary(
      storableString,
      fc
        .jsonValue({ stringUnit: 'grapheme', maxDepth: 3 })
        .filter((value) => !JSON.stringify(value).includes('\\u0000')),
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(data, { minLength: 1, maxLength: 4 }), async (payloads) => {
        const streamId = freshStream('json');
        const normalised = payloads.map((payload) => JSON.parse(JSON.stringify(payload)) as JsonObject);
        await appendToStream(
          database.db,
          streamId,
          normalised.map((payload) => ({ type: 'Noted', data: payload })),
          { expectedVersion: 0 },
        );
        const stored = await readStream(database.db, streamId);
        expect(stored.map((event) => event.data)).toEqual(normalised);
        expect((await verifyStream(database.db, streamId)).breaks).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
