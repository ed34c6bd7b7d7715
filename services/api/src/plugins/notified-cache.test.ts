import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseNotifications } from './database-notifications.ts';
import { NotifiedCache } from './notified-cache.ts';

const CHANNEL = 'test_changes';
let database: TestDatabase;
let notifications: DatabaseNotifications;
let cache: NotifiedCache<string>;
/** How often each key was read from "the database". */
let loads: Map<string, number>;

const read = (key: string, value: string | null = `${key}-value`) =>
  cache.read(key, () => {
    loads.set(key, (loads.get(key) ?? 0) + 1);
    return Promise.resolve(value);
  });
const notify = (key: string) => sql`SELECT pg_notify(${CHANNEL}, ${key})`.execute(database.db);
const eventually = async (condition: () => Promise<boolean>) => {
  for (let tries = 0; tries < 100; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('not within 2 s');
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('NotifiedCache', () => {
  beforeAll(async () => {
    notifications = new DatabaseNotifications({
      newClient: () => new pg.Client({ connectionString: database.url, application_name: 'cache-test' }),
      log: createLogger({ LOG_LEVEL: 'silent' }),
      retryMs: 20,
    });
    cache = new NotifiedCache({ channel: CHANNEL, maxEntries: 3, maxAgeMs: 60_000 });
    await cache.follow(notifications);
  });
  afterAll(async () => {
    await notifications.close();
  });
  beforeEach(() => {
    loads = new Map();
  });

  it('reads a key once, until the database announces its change', async () => {
    expect([await read('a'), await read('a')]).toEqual(['a-value', 'a-value']);
    expect(loads.get('a')).toBe(1);
    await notify('a');
    await eventually(async () => (await read('a'), loads.get('a') === 2));
    await read('a');
    expect(loads.get('a')).toBe(2);
  });

  it('forgets at once the entries whose values match, with no announcement', async () => {
    await read('u1', 'user-1');
    await read('u2', 'user-2');
    cache.forgetWhere((value) => value === 'user-1');
    expect([await read('u1', 'user-1'), await read('u2', 'user-2')]).toEqual(['user-1', 'user-2']);
    expect([loads.get('u1'), loads.get('u2')]).toEqual([2, 1]);
  });

  it('keeps nothing for a key that reads as nothing', async () => {
    await read('none', null);
    await read('none', null);
    expect(loads.get('none')).toBe(2);
  });

  it('forgets the oldest entry beyond its size', async () => {
    for (const key of ['k1', 'k2', 'k3', 'k4']) await read(key);
    await read('k1');
    await read('k4');
    expect([loads.get('k1'), loads.get('k4')]).toEqual([2, 1]);
  });

  it('keeps no row read while a change was announced', async () => {
    await cache.read('racy', async () => {
      loads.set('racy', 1);
      await notify('racy');
      // The notification arrives before the read answers.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return 'stale';
    });
    expect(await read('racy', 'fresh')).toBe('fresh');
  });

  it('trusts nothing while its connection is lost, and caches again once it listens again', async () => {
    await read('b');
    const { rows } = await sql<{ ended: boolean }>`
      SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'cache-test' AND datname = current_database()
    `.execute(database.db);
    expect(rows).toEqual([{ ended: true }]);
    await eventually(() => Promise.resolve(!notifications.listening));
    await read('b');
    expect(loads.get('b')).toBe(2);
    await eventually(() => Promise.resolve(notifications.listening));
    await read('b');
    await read('b');
    expect(loads.get('b')).toBe(3);
    await notify('b');
    await eventually(async () => (await read('b'), loads.get('b') === 4));
  });
});
