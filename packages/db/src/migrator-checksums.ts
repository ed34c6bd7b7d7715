import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { Migration, MigrationProvider } from 'kysely/migration';

/** The migrator's own bookkeeping beside kysely's: each applied migration's checksum. */
export const CHECKSUM_TABLE = 'migration_checksums';

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A migration file as kysely names it (the file name without its extension), with the sha256 of its bytes. */
export interface MigrationFile {
  name: string;
  sha256: string;
  path: string;
}

const isMigrationFile = (fileName: string) =>
  (fileName.endsWith('.ts') && !fileName.endsWith('.d.ts')) ||
  (fileName.endsWith('.mts') && !fileName.endsWith('.d.mts')) ||
  fileName.endsWith('.js') ||
  fileName.endsWith('.mjs');

/**
 * A folder of migrations, as kysely's FileMigrationProvider reads it, that
 * also knows each file's checksum: the bytes hashed are the bytes imported.
 */
export class MigrationFolder implements MigrationProvider {
  readonly #folder: string;
  #files: Promise<MigrationFile[]> | undefined;

  constructor(folder: string) {
    this.#folder = folder;
  }

  files(): Promise<MigrationFile[]> {
    this.#files ??= (async () => {
      const names = (await readdir(this.#folder)).filter(isMigrationFile).sort();
      return Promise.all(
        names.map(async (fileName) => {
          const file = path.join(this.#folder, fileName);
          return {
            name: fileName.slice(0, fileName.lastIndexOf('.')),
            sha256: sha256(await readFile(file)),
            path: file,
          };
        }),
      );
    })();
    return this.#files;
  }

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of await this.files()) {
      migrations[file.name] = (await import(pathToFileURL(file.path).href)) as Migration;
    }
    return migrations;
  }
}

/** An applied migration whose file is no longer the one that ran. */
export class MigrationChanged extends Error {
  readonly migrations: string[];
  constructor(changed: readonly string[]) {
    super(
      `${changed.length === 1 ? 'Migration' : 'Migrations'} ${changed.join(', ')} changed after ${changed.length === 1 ? 'it was' : 'they were'} applied: ` +
        'applied migrations never change. Restore the file from git and put the change in a new migration.',
    );
    this.name = 'MigrationChanged';
    this.migrations = [...changed];
  }
}

export async function createChecksumTable(db: Kysely<Database>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(CHECKSUM_TABLE)} (
      name text PRIMARY KEY,
      sha256 char(64) NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}

/** The checksums recorded for applied migrations, by name. */
async function recordedChecksums(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; sha256: string }>`
    SELECT name, sha256 FROM ${sql.table(CHECKSUM_TABLE)}
  `.execute(db);
  return new Map(rows.map((row) => [row.name, row.sha256]));
}

/** Throws MigrationChanged, naming them, when files of applied migrations differ from the bytes recorded. */
export async function refuseChangedMigrations(db: Kysely<Database>, files: readonly MigrationFile[]): Promise<void> {
  const recorded = await recordedChecksums(db);
  const changed = files.filter((file) => {
    const was = recorded.get(file.name);
    return was !== undefined && was !== file.sha256;
  });
  if (changed.length > 0) throw new MigrationChanged(changed.map((file) => file.name));
}

/**
 * Records the checksum of every applied migration that has none: those this
 * run applied, and, on the first start of a database migrated before
 * checksums were kept, every migration it had applied, as its file is now.
 */
export async function recordChecksums(
  db: Kysely<Database>,
  files: readonly MigrationFile[],
  applied: ReadonlySet<string>,
): Promise<void> {
  const toRecord = files.filter((file) => applied.has(file.name));
  if (toRecord.length === 0) return;
  await sql`
    INSERT INTO ${sql.table(CHECKSUM_TABLE)} (name, sha256)
    SELECT * FROM unnest(${toRecord.map((file) => file.name)}::text[], ${toRecord.map((file) => file.sha256)}::text[])
    ON CONFLICT (name) DO NOTHING
  `.execute(db);
}
