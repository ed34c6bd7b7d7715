import { appendToStream, catchUp, readAll, type AsyncProjection, type Database, type EventHash } from '@peeks/db';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { referenceConsistencyProof, referenceInclusionProof, referenceRoot } from '@peeks/log-verify/testing';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consistencyProof, inclusionProof, logSize, rootAt } from './log-store.ts';
import { ledgerLog } from './sequencer.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 6 });
});
afterAll(() => database.drop());

const metadata = { actor: 'test', requestId: null, clientIp: null };

let round = 0;
async function appendMany(db: Kysely<Database>, streams: number, each: number): Promise<void> {
  round += 1;
  await Promise.all(
    Array.from({ length: streams }, async (_, stream) => {
      for (let version = 0; version < each; version += 1)
        await db.transaction().execute((trx) =>
          appendToStream(trx, `log-test-${round}-${stream}`, [{ type: 'Happened', data: { version } }], {
            expectedVersion: version,
            metadata,
          }),
        );
    }),
  );
}

/** Every event sequenced, polled: readAll stops below other databases' open transactions. */
async function sequenceAll(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM events`.execute(db);
  await expect
    .poll(
      async () => {
        await catchUp(db, ledgerLog, 7);
        return logSize(db);
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(rows[0]?.count);
}

describe('the sequencer', () => {
  it('gives every event one log index, in the safe global order, and the stored tree is the RFC tree', async () => {
    const { db } = database;
    await appendMany(db, 4, 5);
    await sequenceAll(db);
    await appendMany(db, 3, 4);
    await sequenceAll(db);
    await appendMany(db, 8, 30);
    await sequenceAll(db);

    const { events } = await readAll(db, { limit: 10_000 });
    const leaves = await db.selectFrom('ledger_log_leaves').selectAll().orderBy('log_index').execute();
    expect(leaves.map((leaf) => leaf.event_position)).toEqual(events.map((event) => event.position));
    expect(leaves.map((leaf) => leaf.log_index)).toEqual(events.map((_, index) => index));
    const data = leaves.map((leaf) => leaf.leaf_data);
    expect(data.map((leaf) => leaf.toString('hex'))).toEqual(events.map((event) => event.hash));

    for (let size = 1; size <= data.length; size += 1) {
      const tree = data.slice(0, size);
      expect(await rootAt(db, size)).toEqual(referenceRoot(tree));
      const leaf = (size * 7) % size;
      expect(await inclusionProof(db, leaf, size)).toEqual(referenceInclusionProof(leaf, tree));
      expect(await consistencyProof(db, leaf, size)).toEqual(referenceConsistencyProof(leaf, tree));
    }
    // Only every fourth level is kept; the rest is folded from it or from the leaf data.
    const levels = await db.selectFrom('ledger_log_nodes').select('level').distinct().orderBy('level').execute();
    expect(levels.map((row) => row.level)).toEqual(data.length >= 256 ? [4, 8] : [4]);
    const firstNode = await db
      .selectFrom('ledger_log_nodes')
      .select('hash')
      .where('level', '=', 4)
      .where('node_index', '=', 0)
      .executeTakeFirstOrThrow();
    expect(firstNode.hash).toEqual(referenceRoot(data.slice(0, 16)));
  });

  it('builds on the stored tree again after a batch it built was rolled back', async () => {
    const { db } = database;
    await appendMany(db, 3, 3);
    await sequenceAll(db);
    await appendMany(db, 4, 5);
    // Its frontier in memory is for a log the database never got.
    const crashes: AsyncProjection<EventHash> = {
      ...ledgerLog,
      async apply(trx, events) {
        await ledgerLog.apply(trx, events);
        throw new Error('crash before the checkpoint moved');
      },
    };
    await expect
      .poll(() => catchUp(db, crashes, 6).catch((error: unknown) => (error as Error).message), { timeout: 30_000 })
      .toBe('crash before the checkpoint moved');
    await sequenceAll(db);
    const leaves = await db.selectFrom('ledger_log_leaves').select('leaf_data').orderBy('log_index').execute();
    const data = leaves.map((leaf) => leaf.leaf_data);
    expect(await rootAt(db, data.length)).toEqual(referenceRoot(data));
    const nodes = await db
      .selectFrom('ledger_log_nodes')
      .selectAll()
      .where('level', '=', 4)
      .orderBy('node_index')
      .execute();
    expect(nodes.map((node) => node.hash)).toEqual(
      nodes.map((node) => referenceRoot(data.slice(node.node_index * 16, (node.node_index + 1) * 16))),
    );
  });

  it('two sequencers at once give no index twice and skip none', async () => {
    const { db } = database;
    await appendMany(db, 5, 6);
    await Promise.all([sequenceAll(db), sequenceAll(db)]);
    const { rows } = await sql<{ leaves: number; last: number; events: number }>`
      SELECT (SELECT count(*)::int FROM ledger_log_leaves) AS leaves,
             (SELECT max(log_index)::int FROM ledger_log_leaves) AS last,
             (SELECT count(*)::int FROM events) AS events`.execute(db);
    expect(rows[0]).toEqual({ leaves: rows[0]?.events, last: (rows[0]?.events ?? 0) - 1, events: rows[0]?.events });
  });
});
