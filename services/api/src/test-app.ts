import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import { buildApp, type App, type AppOptions } from './app.ts';

export interface TestApp {
  app: App;
  database: TestDatabase;
  /** Every log line the app wrote, parsed. */
  logLines: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The real app over a database of its own, with its log captured for assertions. */
export async function createTestApp(options: Pick<AppOptions, 'webRoot'> & { extend?: (app: App) => void } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({ db: database.db, log: createLogger({ LOG_LEVEL: 'info' }, sink), ...options });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    logLines,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
