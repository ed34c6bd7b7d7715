import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@peeks/runtime';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../app.ts';

/**
 * `node services/api/src/openapi/document-cli.ts <file>`: writes the OpenAPI
 * document GET /api/docs serves, without a database or a listening socket:
 * the routes are only registered, never called, so the pool never connects.
 */
const [file, ...rest] = process.argv.slice(2);
if (file === undefined || rest.length > 0) {
  process.stderr.write('usage: document-cli.ts <file.json>\n');
  process.exit(2);
}
const unused = 'postgres://nobody@127.0.0.1:1/none';
const app = await buildApp({
  db: new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: unused }) }) }),
  databaseUrl: unused,
  log: createLogger({ LOG_LEVEL: 'silent' }),
  jobs: { causedBy: () => [], enqueue: () => Promise.resolve() },
});
await app.ready();
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
