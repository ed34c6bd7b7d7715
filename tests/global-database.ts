import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase, migrateToLatest, openDatabaseServer } from '@peeks/db';
import { databaseUrl, withMaintenanceClient } from '@peeks/db/testing';
import { createLogger, readConfig } from '@peeks/runtime';

/**
 * Before any test file: the server (DATABASE_URL's, else an embedded one
 * under .data/test) and one migrated template database. Every test file
 * copies the template into a database of its own. After the run, every
 * database this run made is dropped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(import.meta.dirname, '../.data/test') },
    log,
  );
  const base = new URL(server.url).pathname.slice(1) || 'postgres';
  const template = `${base.slice(0, 30)}_t${process.pid}`;

  const dropOurs = () =>
    withMaintenanceClient(async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [template],
      );
      for (const { datname } of rows)
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    }, server.url);

  try {
    await dropOurs();
    await withMaintenanceClient(
      (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(template)}`),
      server.url,
    );
    const { db, close } = connectDatabase(databaseUrl(server.url, template), { max: 1 });
    await migrateToLatest(db).finally(close);
  } catch (error) {
    await server.stop();
    throw error;
  }

  project.provide('maintenanceDatabaseUrl', server.url);
  project.provide('templateDatabase', template);
  return async () => {
    await dropOurs();
    await server.stop();
  };
}
