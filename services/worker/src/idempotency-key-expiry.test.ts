import { fingerprintRequest, runIdempotently } from '@peeks/db';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_EXPIRY_QUEUE } from './idempotency-key-expiry.ts';
import { startWorkers, type Workers } from './index.ts';

let database: TestDatabase;
let workers: Workers;
beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({ databaseUrl: database.url, db: database.db, config: { IDEMPOTENCY_KEY_HOURS: 24 }, log: createLogger({ LOG_LEVEL: 'silent' }) });
});
afterAll(async () => {
  await workers.stop();
  await database.drop();
});

async function keyCreatedHoursAgo(key: string, hours: number): Promise<void> {
  await runIdempotently(database.db, { scope: 'user-1', key, fingerprint: fingerprintRequest({ method: 'POST', path: '/x', body: null }) }, () =>
    Promise.resolve({ statusCode: 200, body: { response: 'success' } }),
  );
  await sql`UPDATE idempotency_keys SET created_at = now() - make_interval(hours => ${hours}) WHERE key = ${key}`.execute(database.db);
}

async function remainingKeys(): Promise<string[]> {
  return (await database.db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((row) => row.key);
}

describe('idempotency key expiry job', () => {
  it('is scheduled hourly', async () => {
    expect(await workers.boss.getSchedule(IDEMPOTENCY_KEY_EXPIRY_QUEUE)).toMatchObject({ cron: '17 * * * *' });
  });

  it('removes keys past their hours and keeps the rest', async () => {
    await keyCreatedHoursAgo('old-key', 25);
    await keyCreatedHoursAgo('fresh-key', 1);
    await workers.boss.send(IDEMPOTENCY_KEY_EXPIRY_QUEUE, {});
    await expect.poll(remainingKeys, { timeout: 15_000, interval: 200 }).toEqual(['fresh-key']);
  });
});
