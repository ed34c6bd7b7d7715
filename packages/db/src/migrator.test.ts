import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sha256 } from './migrator-checksums.ts';
import {
  LIVE_SQL,
  LiveSqlFailed,
  MIGRATIONS_DIR,
  MigrationChanged,
  MigrationFailed,
  latestMigration,
  migrateToLatest,
} from './migrator.ts';
import { connectDatabase } from './pool.ts';
import { createTestDatabase, databaseUrl, withMaintenanceClient, type TestDatabase } from './testing/database.ts';

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
      'migration 9001_broken.js failed: column type typo. No migration of this run was applied; the schema is as it was.',
    );
    expect(await tableExists('notes')).toBe(false);
    expect(await tableExists('half_done')).toBe(false);
    expect(await latestMigration(database.db)).toBe(before);
  });

  it("reports a failing statement's own PostgreSQL error, not the aborted transaction's, and keeps no lock", async () => {
    const folder = await copyOfMigrations();
    const before = await latestMigration(database.db);
    await writeFile(
      path.join(folder, '9003_divides_by_zero.js'),
      `import { sql } from 'kysely';\n` +
        `export async function up(db) {\n` +
        `  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();\n` +
        `  await sql\`SELECT 1 / 0\`.execute(db);\n` +
        `}\n`,
    );

    const failure = await failureOf(migrateToLatest(database.db, { folder }));
    expect(failure).toBeInstanceOf(MigrationFailed);
    expect(failure?.message).toBe(
      'migration 9003_divides_by_zero.js failed: division by zero (SQLSTATE 22012). ' +
        'No migration of this run was applied; the schema is as it was.',
    );
    expect(await tableExists('half_done')).toBe(false);
    expect(await latestMigration(database.db)).toBe(before);
    const { rows } = await sql<{ held: number }>`
      SELECT count(*)::int AS held FROM pg_locks
      WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    `.execute(database.db);
    expect(rows[0]?.held).toBe(0);
  });

  it('says where a statement of a migration failed: the character of its text, the line of a DO block', async () => {
    const folder = await copyOfMigrations();
    const statement = 'CREATE TABLE half_done (id integr)';
    await writeFile(
      path.join(folder, '9004_typo.js'),
      `import { sql } from 'kysely';\nexport async function up(db) { await sql\`${statement}\`.execute(db); }\n`,
    );
    expect((await failureOf(migrateToLatest(database.db, { folder })))?.message).toBe(
      `migration 9004_typo.js failed: type "integr" does not exist (SQLSTATE 42704, at character ${statement.indexOf('integr') + 1}). ` +
        'No migration of this run was applied; the schema is as it was.',
    );

    await rm(path.join(folder, '9004_typo.js'));
    await writeFile(
      path.join(folder, '9005_refuses.js'),
      `import { sql } from 'kysely';\n` +
        `export async function up(db) {\n` +
        `  await sql\`DO $$\nBEGIN\n  RAISE EXCEPTION 'leaf % names an event that is gone', 7;\nEND $$\`.execute(db);\n` +
        `}\n`,
    );
    expect((await failureOf(migrateToLatest(database.db, { folder })))?.message).toBe(
      'migration 9005_refuses.js failed: leaf 7 names an event that is gone ' +
        '(SQLSTATE P0001, PL/pgSQL function inline_code_block line 3 at RAISE). ' +
        'No migration of this run was applied; the schema is as it was.',
    );
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
      const counts = await sql<{ migrations: number; checksums: number; live: number }>`
        SELECT (SELECT count(*) FROM kysely_migration)::int AS migrations,
               (SELECT count(*) FROM migration_checksums)::int AS checksums,
               (SELECT count(*) FROM live_sql)::int AS live
      `.execute(first!.db);
      const migrationFiles = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.ts'));
      expect(counts.rows[0]).toEqual({
        migrations: migrationFiles.length,
        checksums: migrationFiles.length,
        live: LIVE_SQL.length,
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

/** The body between the dollar quotes of a file's CREATE FUNCTION, as pg_proc keeps it. */
const bodyOf = (text: string) => /AS \$\$([\s\S]*)\$\$;\s*$/.exec(text)?.[1];
const functionOf = (text: string) => /CREATE OR REPLACE FUNCTION (\w+)\(/.exec(text)?.[1];

async function sqlFilesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.sql') && !entry.parentPath.includes('node_modules'))
      found.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)));
  }
  return found.sort();
}

describe('live SQL', () => {
  it('is every .sql file under packages/, and each of its functions is defined in exactly one of them', async () => {
    expect(await sqlFilesUnder(path.join(ROOT, 'packages'))).toEqual([...LIVE_SQL].sort());
    const functions = await Promise.all(
      LIVE_SQL.map(async (file) => {
        const text = await readFile(path.join(ROOT, file), 'utf8');
        expect(text.match(/CREATE OR REPLACE FUNCTION/g), file).toHaveLength(1);
        return functionOf(text);
      }),
    );
    expect(new Set(functions).size).toBe(LIVE_SQL.length);
  });

  it('is what the database runs: each function has its file body, and the file as recorded', async () => {
    for (const file of LIVE_SQL) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      const { rows } = await sql<{ body: string }>`
        SELECT prosrc AS body FROM pg_proc WHERE proname = ${functionOf(text) ?? ''}
      `.execute(database.db);
      expect(rows, file).toEqual([{ body: bodyOf(text) }]);
      const recorded = await sql<{ sha256: string }>`SELECT sha256 FROM live_sql WHERE file = ${file}`.execute(
        database.db,
      );
      expect(recorded.rows, file).toEqual([{ sha256: sha256(text) }]);
    }
  });

  it('reaches a database that has the function already when its file changes, and changes it back', async () => {
    const file = 'packages/ledger-store/src/sql/ledger-commit.sql';
    const changedRoot = await scratchFolder();
    const original = await readFile(path.join(ROOT, file), 'utf8');
    const changed = original.replace('#variable_conflict use_column', '#variable_conflict use_column\n-- changed');
    expect(changed).not.toBe(original);
    await mkdir(path.dirname(path.join(changedRoot, file)), { recursive: true });
    await writeFile(path.join(changedRoot, file), changed);
    const body = async () =>
      (
        await sql<{ body: string }>`SELECT prosrc AS body FROM pg_proc WHERE proname = 'ledger_commit'`.execute(
          database.db,
        )
      ).rows[0]?.body;

    await migrateToLatest(database.db, { root: changedRoot, liveSql: [file] });
    expect(await body()).toBe(bodyOf(changed));
    await migrateToLatest(database.db);
    expect(await body()).toBe(bodyOf(original));
  });

  it('leaves a function whose file has not changed since it was applied alone', async () => {
    const root = await scratchFolder();
    const probe = (value: number) =>
      `CREATE OR REPLACE FUNCTION live_sql_probe() RETURNS integer LANGUAGE sql AS $$ SELECT ${value} $$;\n`;
    const answer = async () =>
      (await sql<{ value: number }>`SELECT live_sql_probe() AS value`.execute(database.db)).rows[0]?.value;
    await writeFile(path.join(root, 'probe.sql'), probe(1));
    await migrateToLatest(database.db, { root, liveSql: ['probe.sql'] });
    expect(await answer()).toBe(1);

    // Replaced by hand: a start with the same file does not run it again.
    await sql.raw(probe(99)).execute(database.db);
    await migrateToLatest(database.db, { root, liveSql: ['probe.sql'] });
    expect(await answer()).toBe(99);

    await writeFile(path.join(root, 'probe.sql'), probe(2));
    await migrateToLatest(database.db, { root, liveSql: ['probe.sql'] });
    expect(await answer()).toBe(2);
  });

  it('applies nothing of a start whose live SQL fails, and names the file', async () => {
    const root = await scratchFolder();
    await writeFile(
      path.join(root, 'good.sql'),
      'CREATE OR REPLACE FUNCTION live_sql_good() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\n',
    );
    await writeFile(path.join(root, 'broken.sql'), 'CREATE OR REPLACE FUNCTION live_sql_broken( RETURNS integer;\n');
    const failure = await failureOf(migrateToLatest(database.db, { root, liveSql: ['good.sql', 'broken.sql'] }));
    expect(failure).toBeInstanceOf(LiveSqlFailed);
    expect(failure?.message).toMatch(
      /^live SQL broken\.sql failed: syntax error .*\. Nothing of this start was applied/,
    );
    const { rows } = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'live_sql_good') AS found
    `.execute(database.db);
    expect(rows[0]?.found).toBe(false);
  });
});
