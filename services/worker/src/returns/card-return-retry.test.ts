import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { CARD_RETURN_RETRY_QUEUE } from '@peeks/jobs';
import { createLogger, readConfig } from '@peeks/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../index.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const start = (cardProcessor?: { baseUrl: () => string; credential: string }) =>
  startWorkers({
    databaseUrl: database.url,
    db: database.db,
    config: readConfig({}),
    log: createLogger({ LOG_LEVEL: 'silent' }),
    ...(cardProcessor ? { cardProcessor } : {}),
  });

// The retry itself (stalled, racing, processor down) is tested beside the returns in the API.
describe('card return retry', () => {
  it('is scheduled every minute when the workers know the card processor, and runs', async () => {
    const workers = await start({ baseUrl: () => 'http://127.0.0.1:9', credential: 'x'.repeat(32) });
    try {
      expect(await workers.boss.getSchedule(CARD_RETURN_RETRY_QUEUE.name)).toMatchObject({ cron: '* * * * *' });
      const jobId = await workers.boss.send(CARD_RETURN_RETRY_QUEUE.name, {});
      await expect
        .poll(async () => (await workers.boss.findJobs(CARD_RETURN_RETRY_QUEUE.name, { id: jobId ?? '' }))[0]?.state, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe('completed');
    } finally {
      // Schedules live in the database: the next test starts without it.
      await workers.boss.unschedule(CARD_RETURN_RETRY_QUEUE.name);
      await workers.stop();
    }
  });

  it('is not scheduled when they do not, rather than failing every minute', async () => {
    const workers = await start();
    try {
      expect(await workers.boss.getSchedule(CARD_RETURN_RETRY_QUEUE.name)).toBeNull();
    } finally {
      await workers.stop();
    }
  });
});
