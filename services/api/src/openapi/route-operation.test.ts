import { createLogger } from '@peeks/runtime';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';

/** The app as the document's command builds it: routes registered, nothing called, no database reached. */
const unused = 'postgres://nobody@127.0.0.1:1/none';
let app: App | undefined;
const built = async () => {
  app = await buildApp({
    db: new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: unused }) }) }),
    databaseUrl: unused,
    log: createLogger({ LOG_LEVEL: 'silent' }),
    jobs: { causedBy: () => [], enqueue: () => Promise.resolve() },
  });
  return app;
};
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('a route describes itself, or the app does not start', () => {
  it('refuses an /api route added without config.operation', async () => {
    const subject = await built();
    expect(() => subject.get('/api/undescribed', () => ({ response: 'success' }))).toThrow(
      /GET \/api\/undescribed does not describe itself/,
    );
  });

  it('refuses an operationId another route already has', async () => {
    const subject = await built();
    expect(() =>
      subject.post(
        '/api/also-health',
        { config: { operation: { operationId: 'getHealth', summary: 'Check again', tag: 'health' } } },
        () => ({ response: 'success' }),
      ),
    ).toThrow(/POST \/api\/also-health has operationId getHealth, which GET \/api\/health already has/);
  });

  it('takes a described route, and a route hidden from the document', async () => {
    const subject = await built();
    subject.post(
      '/api/described',
      { config: { operation: { operationId: 'describedForTest', summary: 'A test route', tag: 'health' } } },
      () => ({ response: 'success' }),
    );
    subject.get('/api/hidden', { schema: { hide: true } }, () => ({ response: 'success' }));
    await subject.ready();
    const document = subject.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(document.paths['/api/described']?.post?.operationId).toBe('describedForTest');
    expect(document.paths['/api/hidden']).toBeUndefined();
  });
});
