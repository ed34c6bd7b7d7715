import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import {
  CHECKSUM_TABLE,
  createChecksumTable,
  MigrationFolder,
  recordChecksums,
  refuseChangedMigrations,
} from './migrator-checksums.ts';
import { applyLiveSql, createLiveSqlTable, LIVE_SQL, LIVE_SQL_TABLE } from './migrator-live-sql.ts';
import { failureReason } from './postgres-error.ts';
import type { Database } from './schema.ts';

export { MigrationChanged } from './migrator-checksums.ts';
export { LIVE_SQL, LiveSqlFailed } from './migrator-live-sql.ts';

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../../migrations');

/** The migrator's own tables beside kysely's (`kysely_migration*`): not part of the schema the migrations build. */
export const MIGRATOR_TABLES: readonly string[] = [CHECKSUM_TABLE, LIVE_SQL_TABLE];

export class MigrationFailed extends Error {
  /** `migration`: its file's name. */
  constructor(migration: string, cause: unknown) {
    super(
      `migration ${migration} failed: ${failureReason(cause)}. No migration of this run was applied; the schema is as it was.`,
      { cause },
    );
    this.name = 'MigrationFailed';
  }
}

export interface MigrateOptions {
  /** The migrations; the repository's `migrations/` unless given. */
  folder?: string;
  /** The live SQL files, as paths from `root` (LIVE_SQL and the repository's root unless given). */
  liveSql?: readonly string[];
  root?: string;
}

/**
 * Brings the database to what this code expects, in one transaction
 * (Postgres has transactional DDL), so a failure leaves it exactly as it
 * was:
 * 1. refuses to go on when the file of an applied migration has changed
 *    since it ran (MigrationChanged, naming it);
 * 2. applies every pending migration and records each one's checksum;
 * 3. applies each live SQL file that differs from the copy applied last
 *    (docs/architecture/live-sql.md).
 * Concurrent starts wait for each other on an advisory lock, so the second
 * finds everything done. Returns the name of the latest applied migration.
 */
export async function migrateToLatest(db: Kysely<Database>, options: MigrateOptions = {}): Promise<string | null> {
  const folder = new MigrationFolder(options.folder ?? MIGRATIONS_DIR);
  const files = await folder.files();
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('peeks: migrate', 0))`.execute(trx);
    await createChecksumTable(trx);
    await createLiveSqlTable(trx);
    await refuseChangedMigrations(trx, files);

    const { error, results = [] } = await new Migrator({
      db: trx,
      provider: eachUnderSavepoint(folder),
    }).migrateToLatest();
    if (error) {
      const failed = results.find((result) => result.status === 'Error')?.migrationName;
      const file = files.find((candidate) => candidate.name === failed);
      throw new MigrationFailed(file ? path.basename(file.path) : '(before any migration ran)', error);
    }
    await recordChecksums(trx, files, new Set(await appliedMigrations(trx)));

    await applyLiveSql(trx, options.liveSql ?? LIVE_SQL, options.root);
  });
  return latestMigration(db);
}

/**
 * Runs each migration under a savepoint that a failure rolls back to. A
 * failed statement aborts the transaction, and kysely then releases its
 * migration lock in it: that statement's error ("current transaction is
 * aborted") replaced the migration's own, and the lock, session-level,
 * stayed with the connection. The run as a whole still rolls back
 * (MigrationFailed).
 */
function eachUnderSavepoint(provider: MigrationProvider): MigrationProvider {
  const underSavepoint = (migration: Migration): Migration => ({
    ...migration,
    up: async (db) => {
      await sql`SAVEPOINT migration`.execute(db);
      try {
        await migration.up(db);
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT migration`.execute(db);
        throw error;
      }
      await sql`RELEASE SAVEPOINT migration`.execute(db);
    },
  });
  return {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(await provider.getMigrations()).map(([name, m]) => [name, underSavepoint(m)])),
  };
}

async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  return rows.map((row) => row.name);
}

/** The latest applied migration, read from kysely's own bookkeeping table. */
export async function latestMigration(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(
    db,
  );
  return rows[0]?.name ?? null;
}
