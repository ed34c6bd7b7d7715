import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, MigrationFailed, latestMigration, migrateToLatest } from './migrator.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

let database: TestDatabase;
let folder: string;
beforeAll(async () => {
  database = await createTestDatabase();
  // Inside the repository, so the copied migrations still resolve `kysely`.
  folder = await mkdtemp(path.join(MIGRATIONS_DIR, '..', '.data', 'migrations-test-'));
  await cp(MIGRATIONS_DIR, folder, { recursive: true });
});
afterAll(async () => {
  await database.drop();
  await rm(folder, { recursive: true, force: true });
});

const tableExists = async (name: string) =>
  (await sql<{ found: boolean }>`SELECT to_regclass(${name}) IS NOT NULL AS found`.execute(database.db)).rows[0]?.found;

describe('migrateToLatest', () => {
  it('is a no-op on an up-to-date database and names the latest migration', async () => {
    const latest = await latestMigration(database.db);
    expect(latest).toMatch(/^\d{4}_/);
    expect(await migrateToLatest(database.db)).toBe(latest);
  });

  it('applies nothing of a run in which one migration fails', async () => {
    const before = await latestMigration(database.db);
    await writeFile(
      path.join(folder, '9000_add_notes.js'),
      `export async function up(db) { await db.schema.createTable('notes').addColumn('id', 'integer').execute(); }\n`,
    );
    await writeFile(
      path.join(folder, '9001_broken.js'),
      `export async function up(db) { await db.schema.createTable('half_done').addColumn('id', 'integer').execute(); throw new Error('column type typo'); }\n`,
    );

    const failure = await migrateToLatest(database.db, folder).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationFailed);
    expect((failure as Error).message).toBe(
      'migration "9001_broken" failed: column type typo. No migration of this run was applied; the schema is as it was.',
    );
    expect(await tableExists('notes')).toBe(false);
    expect(await tableExists('half_done')).toBe(false);
    expect(await latestMigration(database.db)).toBe(before);
  });
});
