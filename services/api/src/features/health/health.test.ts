import { healthResponse } from '@peeks/contracts';
import { latestMigration } from '@peeks/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp();
});
afterAll(() => subject.close());

describe('GET /api/health', () => {
  it('says the database is up and names the latest migration', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = healthResponse.parse(response.json());
    expect(body).toEqual({
      response: 'success',
      database: 'up',
      migration: await latestMigration(subject.database.db),
    });
    expect(body.migration).toMatch(/^\d{4}_/);
  });

  it('answers 503 in the error envelope when the database does not', async () => {
    const down = await createTestApp();
    await down.database.drop();
    const response = await down.app.inject({ method: 'GET', url: '/api/health' });
    await down.app.close();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      response: 'error',
      request_id: expect.any(String) as string,
      message: 'Database is unavailable',
      errors: [{ code: 50300, message: 'Service unavailable' }],
    });
  });
});
