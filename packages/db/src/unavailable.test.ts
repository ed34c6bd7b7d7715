import { createServer } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './pool.ts';
import { createTestDatabase, type TestDatabase } from './testing/database.ts';
import { NoSuitableHost } from './session-target.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/** What a statement on `run` throws. */
async function thrownBy(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the statement did not fail');
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('isDatabaseUnavailable', () => {
  it('is true for a server that refuses connections', async () => {
    const away = connectDatabase(`postgres://postgres@127.0.0.1:${await closedPort()}/postgres`, { max: 1 });
    try {
      expect(isDatabaseUnavailable(await thrownBy(() => sql`SELECT 1`.execute(away.db)))).toBe(true);
    } finally {
      await away.close();
    }
  });

  it('is true for a connection the server ends under a statement (57P01, as in a restart)', async () => {
    // A pool of its own: the ended connection is not handed to the other tests.
    const ended = connectDatabase(database.url, { max: 1 });
    try {
      const error = await thrownBy(() => sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(ended.db));
      expect((error as { code?: unknown }).code).toBe('57P01');
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await ended.close();
    }
  });

  it('is true for a write on a server that turned read-only (25006, a primary that stepped down)', async () => {
    const demoted = connectDatabase(database.url, { max: 1 });
    try {
      await sql`SET default_transaction_read_only = on`.execute(demoted.db);
      const error = await thrownBy(() => sql`CREATE TABLE written_on_a_standby (id int)`.execute(demoted.db));
      expect((error as { code?: unknown }).code).toBe('25006');
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await demoted.close();
    }
  });

  it('is true for the restart and connection codes, and through a cause or an AggregateError', () => {
    for (const code of ['57P03', '57P02', '08006', '08001', '53300'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // No host of a multi-host URL is writable: between a primary's loss and its standby's promotion.
    expect(isDatabaseUnavailable(new NoSuitableHost('read-write', ['127.0.0.1:6001', '127.0.0.1:6002']))).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it("is false for the database's refusals of what was asked, and for other errors", async () => {
    for (const statement of [sql`SELEC 1`, sql`SELECT 1 / 0`, sql`SELECT * FROM no_such_table`]) {
      const error = await thrownBy(() => statement.execute(database.db));
      expect(isDatabaseUnavailable(error), (error as Error).message).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('secret internals'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '40001' }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
