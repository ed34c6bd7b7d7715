import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sha256 } from './migrator-checksums.ts';
import { MIGRATIONS_DIR, MigrationChanged, MigrationFailed, latestMigration, migrateToLatest } from './migrator.ts';
import { connectDatabase } from './pool.ts';
import { createTestDatabase, databaseUrl, withMaintenanceClient, type TestDatabase } from './testing.ts';

const ROOT = path.resolve(MIGRATIONS_DIR, '..');
const SCRATCH = path.join(ROOT, '.data');

let database: TestDatabase;
const scratchFolders: string[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  await mkdir(SCRATCH, { recursive: true });
});
afterAll(async () => {
  await database.drop();
  for (const folder of scratchFolders) await rm(folder, { recursive: true, force: true });
});

/** A folder of its own under .data: inside the repository, so copied migrations still resolve `kysely`. */
async function scratchFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(SCRATCH, 'migrator-test-'));
  scratchFolders.push(folder);
  return folder;
}

async function copyOfMigrations(): Promise<string> {
  const folder = await scratchFolder();
  await cp(MIGRATIONS_DIR, folder, { recursive: true });
  return folder;
}

const tableExists = async (name: string) =>
  (await sql<{ found: boolean }>`SELECT to_regclass(${name}) IS NOT NULL AS found`.execute(database.db)).rows[0]?.found;

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Error,
  );

describe('migrateToLatest', () => {
  it('is a no-op on an up-to-date database and names the latest migration', async () => {
    const latest = await latestMigration(database.db);
    expect(latest).toMatch(/^\d{4}_/);
    expect(await migrateToLatest(database.db)).toBe(latest);
  });

  it('applies nothing of a run in which one migration fails', async () => {
    const folder = await copyOfMigrations();
    const before = await latestMigration(database.db);
    await writeFile(
      path.join(folder, '9000_add_notes.js'),
      `export async function up(db) { await db.schema.createTable('notes').addColumn('id', 'integer').execute(); }\n`,
    );
    await writeFile(
      path.join(folder, '9001_broken.js'),
      `export async function up(db) { await db.schema.createTable('half_done').addColumn('id', 'integer').execute(); throw new Error('column type typo'); }\n`,
    );

    const failure = await failureOf(migrateToLatest(database.db, { folder }));
    expect(failure).toBeInstanceOf(MigrationFailed);
    expect(failure?.message).toBe(
      'migration "9001_broken" failed: column type typo. No migration of this run was applied; the schema is as it was.',
    );
    expect(await tableExists('notes')).toBe(false);
    expect(await tableExists('half_done')).toBe(false);
    expect(await latestMigration(database.db)).toBe(before);
  });

  it('lets several processes start at once on a new database: each waits, none fails, everything is applied once', async () => {
    const name = `${inject('templateDatabase')}_m${randomBytes(4).toString('hex')}`;
    await withMaintenanceClient((client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    const processes = Array.from({ length: 4 }, () =>
      connectDatabase(databaseUrl(inject('maintenanceDatabaseUrl'), name), { max: 1 }),
    );
    try {
      const latest = await Promise.all(processes.map(({ db }) => migrateToLatest(db)));
      expect(new Set(latest)).toEqual(new Set([await latestMigration(database.db)]));
      const [first] = processes;
      const counts = await sql<{ migrations: number; checksums: number }>`
        SELECT (SELECT count(*) FROM kysely_migration)::int AS migrations,
               (SELECT count(*) FROM migration_checksums)::int AS checksums
      `.execute(first!.db);
      const migrationFiles = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.ts'));
      expect(counts.rows[0]).toEqual({
        migrations: migrationFiles.length,
        checksums: migrationFiles.length,
      });
    } finally {
      for (const { close } of processes) await close();
      await withMaintenanceClient((client) =>
        client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
      );
    }
  });
});

describe('applied migrations', () => {
  it('stop the start with one line naming an applied migration whose file changed, applying nothing', async () => {
    const folder = await copyOfMigrations();
    await appendFile(path.join(folder, '0073_ledger_commit_final_rows.ts'), '// edited after it ran\n');
    await writeFile(
      path.join(folder, '9002_add_notes.js'),
      `export async function up(db) { await db.schema.createTable('notes').addColumn('id', 'integer').execute(); }\n`,
    );

    const failure = await failureOf(migrateToLatest(database.db, { folder }));
    expect(failure).toBeInstanceOf(MigrationChanged);
    expect(failure?.message).toBe(
      'Migration 0073_ledger_commit_final_rows changed after it was applied: applied migrations never change. ' +
        'Restore the file from git and put the change in a new migration.',
    );
    expect(await tableExists('notes')).toBe(false);
  });

  it('have their checksums recorded on the first start of a database migrated before checksums were kept', async () => {
    await sql`DROP TABLE migration_checksums`.execute(database.db);
    await migrateToLatest(database.db);
    const { rows } = await sql<{ name: string; sha256: string }>`
      SELECT name, sha256 FROM migration_checksums ORDER BY name
    `.execute(database.db);
    const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.ts')).sort();
    expect(rows).toEqual(
      await Promise.all(
        files.map(async (file) => ({
          name: file.replace(/\.ts$/, ''),
          sha256: sha256(await readFile(path.join(MIGRATIONS_DIR, file))),
        })),
      ),
    );

    const folder = await copyOfMigrations();
    await appendFile(path.join(folder, '0004_ledger_commit.ts'), '\n');
    expect(await failureOf(migrateToLatest(database.db, { folder }))).toBeInstanceOf(MigrationChanged);
  });

  it('stop `npm run migrate` the same way: exit 1, one line on stderr naming the migration', async () => {
    const recorded = sql<{ sha256: string }>`SELECT sha256 FROM migration_checksums WHERE name = '0004_ledger_commit'`;
    const [was] = (await recorded.execute(database.db)).rows;
    // As if the file had been edited since it ran: the recorded bytes are not the file's.
    await sql`UPDATE migration_checksums SET sha256 = ${'0'.repeat(64)} WHERE name = '0004_ledger_commit'`.execute(
      database.db,
    );
    try {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, 'migrate-cli.ts')], {
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(
        'Migration 0004_ledger_commit changed after it was applied: applied migrations never change. ' +
          'Restore the file from git and put the change in a new migration.\n',
      );
    } finally {
      await sql`UPDATE migration_checksums SET sha256 = ${was?.sha256 ?? ''} WHERE name = '0004_ledger_commit'`.execute(
        database.db,
      );
    }
  });
});
