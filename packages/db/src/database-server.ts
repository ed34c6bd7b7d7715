import type { Config, Logger } from '@peeks/runtime';
import { startEmbeddedPostgres, type DatabaseServer } from './embedded-server.ts';

export type { DatabaseServer };

/** `DATABASE_URL` when it is set, else the embedded server under `DATA_DIR`. */
export async function openDatabaseServer(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  log: Logger,
): Promise<DatabaseServer> {
  if (config.DATABASE_URL) {
    return { url: config.DATABASE_URL, stop: () => Promise.resolve() };
  }
  return startEmbeddedPostgres({ dataDir: config.DATA_DIR, database: 'peeks', log });
}
