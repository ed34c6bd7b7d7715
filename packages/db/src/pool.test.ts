import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, StatementNames, type DatabaseHandle } from './pool.ts';
import { createTestDatabase, type TestDatabase } from './testing/database.ts';

describe('StatementNames', () => {
  it('names a statement from its third run on, and the same text always alike', () => {
    const names = new StatementNames();
    expect(names.nameOf('SELECT $1')).toBeUndefined();
    expect(names.nameOf('SELECT $1')).toBeUndefined();
    const name = names.nameOf('SELECT $1');
    expect(name).toMatch(/^peeks_\d+$/);
    expect(names.nameOf('SELECT $1')).toBe(name);
    for (let run = 0; run < 3; run++) names.nameOf('SELECT $1 + 1');
    expect(names.nameOf('SELECT $1 + 1')).not.toBe(name);
  });

  it('stops naming new texts at 200, and keeps the names it gave', () => {
    const names = new StatementNames();
    const first = [0, 1, 2].map(() => names.nameOf('SELECT 0 + $1')).at(-1);
    for (let text = 1; text < 200; text++) for (let run = 0; run < 3; run++) names.nameOf(`SELECT ${text} + $1`);
    for (let run = 0; run < 5; run++) expect(names.nameOf('SELECT 200 + $1')).toBeUndefined();
    expect(names.nameOf('SELECT 0 + $1')).toBe(first);
  });
});

describe('a pool with preparedStatements', () => {
  let database: TestDatabase;
  let pool: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = connectDatabase(database.url, { max: 1, preparedStatements: true });
  });
  afterAll(async () => {
    await pool.close();
    await database.drop();
  });

  const preparedOnThisConnection = async () => {
    const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(pool.db);
    return rows.map((row) => row.statement);
  };

  it('prepares a statement that runs again and again, and answers alike before and after', async () => {
    const answers = [];
    for (let run = 0; run < 5; run++)
      answers.push(
        (await sql<{ doubled: number }>`SELECT ${run}::int * 2 AS doubled`.execute(pool.db)).rows[0]?.doubled,
      );
    expect(answers).toEqual([0, 2, 4, 6, 8]);
    expect(await preparedOnThisConnection()).toContainEqual(expect.stringContaining('SELECT $1::int * 2 AS doubled'));
  });

  it('answers a prepared SELECT * after another process altered its table, and prepares it no more', async () => {
    await sql`CREATE TABLE altered (id int PRIMARY KEY)`.execute(pool.db);
    await sql`INSERT INTO altered VALUES (1)`.execute(pool.db);
    const read = () => sql<Record<string, unknown>>`SELECT * FROM altered WHERE id = ${1}`.execute(pool.db);
    for (let run = 0; run < 4; run++) expect((await read()).rows).toEqual([{ id: 1 }]);
    expect(await preparedOnThisConnection()).toContainEqual(expect.stringContaining('SELECT * FROM altered'));
    await sql`ALTER TABLE altered ADD COLUMN note text DEFAULT 'new'`.execute(database.db);
    expect((await read()).rows).toEqual([{ id: 1, note: 'new' }]);
    expect((await read()).rows).toEqual([{ id: 1, note: 'new' }]);
  });

  it('leaves statements without parameters unprepared, so one text may hold several commands', async () => {
    for (let run = 0; run < 5; run++) await sql`SELECT 1; SELECT 2`.execute(pool.db);
    expect(await preparedOnThisConnection()).not.toContainEqual(expect.stringContaining('SELECT 1; SELECT 2'));
  });

  it('prepares nothing without the option', async () => {
    const plain = connectDatabase(database.url, { max: 1 });
    try {
      for (let run = 0; run < 5; run++) await sql`SELECT ${run}::int + 40 AS sum`.execute(plain.db);
      const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM pg_prepared_statements`.execute(
        plain.db,
      );
      expect(rows[0]?.count).toBe(0);
    } finally {
      await plain.close();
    }
  });
});

describe('a pool losing its server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  // pg-pool listens for errors only on idle clients: a connection that dies while checked out, between two
  // statements of a transaction, emitted 'error' with no listener and ended the process (found by npm run chaos).
  it('survives a connection that dies while checked out, and serves the next query on a new one', async () => {
    const lost: Error[] = [];
    const handle = connectDatabase(database.url, { max: 2, onError: (error) => lost.push(error) });
    const admin = connectDatabase(database.url, { max: 1 });
    try {
      const inside = handle.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
        await sql`SELECT pg_terminate_backend(${rows[0]?.pid})`.execute(admin.db);
        // The server's goodbye reaches the client while no statement runs on it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`SELECT 1`.execute(trx);
      });
      await expect(inside).rejects.toThrow();
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.close();
      await handle.close();
    }
  });
});
