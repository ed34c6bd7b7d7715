import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import type { Database } from './schema.ts';

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../../migrations');

export class MigrationFailed extends Error {
  constructor(migration: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `migration "${migration}" failed: ${reason}. No migration of this run was applied; the schema is as it was.`,
      { cause },
    );
    this.name = 'MigrationFailed';
  }
}

function migratorFor(db: Kysely<Database>, folder: string): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: folder }),
  });
}

/**
 * Applies every pending migration in one transaction (Postgres has
 * transactional DDL), so a failure leaves the schema exactly as it was.
 * Concurrent starts are serialised by kysely's migration lock.
 * Returns the name of the latest applied migration.
 */
export async function migrateToLatest(db: Kysely<Database>, folder = MIGRATIONS_DIR): Promise<string | null> {
  const { error, results = [] } = await migratorFor(db, folder).migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? '(before any migration ran)';
    throw new MigrationFailed(failed, error);
  }
  return latestMigration(db);
}

/** The latest applied migration, read from kysely's own bookkeeping table. */
export async function latestMigration(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(
    db,
  );
  return rows[0]?.name ?? null;
}
