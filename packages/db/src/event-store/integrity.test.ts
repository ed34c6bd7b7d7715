import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, tamper, type TestDatabase } from '../testing/database.ts';
import { appendToStream } from './append.ts';
import { verifyAllStreams, verifyStream } from './verify.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

let streamCounter = 0;
async function streamOf(length: number): Promise<string> {
  const streamId = `integrity-${++streamCounter}`;
  await appendToStream(
    database.db,
    streamId,
    Array.from({ length }, (_, index) => ({ type: 'Deposited', data: { amount: (index + 1) * 100, currency: 'CAD' } })),
    { expectedVersion: 0, metadata: { actor: 'finance-1' } },
  );
  return streamId;
}

describe('events are append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE on events', async () => {
    const streamId = await streamOf(2);
    await expect(
      sql`UPDATE events SET data = '{"amount": 1}' WHERE stream_id = ${streamId}`.execute(database.db),
    ).rejects.toThrow(/append-only: UPDATE/);
    await expect(sql`DELETE FROM events WHERE stream_id = ${streamId}`.execute(database.db)).rejects.toThrow(
      /append-only: DELETE/,
    );
    await expect(sql`TRUNCATE events CASCADE`.execute(database.db)).rejects.toThrow(/append-only: TRUNCATE/);
    expect((await verifyStream(database.db, streamId)).eventsChecked).toBe(2);
  });
});

describe('hash chain', () => {
  it('verifies untouched streams', async () => {
    const streams = [await streamOf(1), await streamOf(3), await streamOf(7)];
    for (const streamId of streams) {
      expect(await verifyStream(database.db, streamId)).toEqual({
        streamsChecked: 1,
        eventsChecked: streamId === streams[0] ? 1 : streamId === streams[1] ? 3 : 7,
        breaks: [],
      });
    }
    const everything = await verifyAllStreams(database.db, 2);
    expect(everything.breaks).toEqual([]);
    expect(everything.streamsChecked).toBeGreaterThanOrEqual(3);
  });

  it('detects an amount changed in place', async () => {
    const streamId = await streamOf(4);
    await tamper(
      database.db,
      sql`UPDATE events SET data = jsonb_set(data, '{amount}', '999900') WHERE stream_id = ${streamId} AND stream_version = 3`,
    );
    expect((await verifyStream(database.db, streamId)).breaks).toEqual([
      { streamId, version: 3, reason: 'stored fields do not hash to the stored hash' },
    ]);
  });

  it('detects a rewritten event whose own hash was recomputed', async () => {
    const streamId = await streamOf(3);
    // The forger fixes event 2's hash, but event 3 still names the old one.
    await tamper(
      database.db,
      sql`UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '"mallory"'), hash = repeat('a', 64) WHERE stream_id = ${streamId} AND stream_version = 2`,
    );
    const report = await verifyStream(database.db, streamId);
    expect(report.breaks[0]).toMatchObject({ streamId, version: 2 });
  });

  it('detects a deleted event in the middle of a stream', async () => {
    const streamId = await streamOf(3);
    await tamper(database.db, sql`DELETE FROM events WHERE stream_id = ${streamId} AND stream_version = 2`);
    expect((await verifyStream(database.db, streamId)).breaks).toEqual([
      { streamId, version: 2, reason: 'version 3 found where 2 belongs' },
    ]);
  });

  it('detects an event inserted behind the store with a forged place in the chain', async () => {
    const streamId = await streamOf(2);
    await tamper(
      database.db,
      sql`INSERT INTO events (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
          SELECT stream_id, 3, type, '{"amount": 100000}', metadata, created_at, hash, repeat('b', 64) FROM events WHERE stream_id = ${streamId} AND stream_version = 2`,
    );
    expect((await verifyStream(database.db, streamId)).breaks).toEqual([
      { streamId, version: 3, reason: 'stored fields do not hash to the stored hash' },
    ]);
  });

  it('reports every broken stream when verifying them all', async () => {
    const broken = await streamOf(2);
    await tamper(
      database.db,
      sql`UPDATE events SET type = 'Withdrawn' WHERE stream_id = ${broken} AND stream_version = 1`,
    );
    const report = await verifyAllStreams(database.db, 3);
    expect(report.breaks.map((found) => found.streamId)).toContain(broken);
    expect(report.breaks.find((found) => found.streamId === broken)?.version).toBe(1);
  });
});
