import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { sha256 } from './migrator-checksums.ts';
import { failureReason } from './postgres-error.ts';

/** The migrator's record of the live SQL each database runs: each file's checksum when it was last applied. */
export const LIVE_SQL_TABLE = 'live_sql';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The stored functions the code calls, each in the one file that holds its
 * live body, beside the code that calls it (docs/architecture/live-sql.md).
 * Paths are from the repository's root, which is also how they are
 * recorded. A test checks that every .sql file under packages/ is listed.
 */
export const LIVE_SQL: readonly string[] = [
  'packages/db/src/event-store/append-events.sql',
  'packages/ledger-store/src/sql/ledger-state.sql',
  'packages/ledger-store/src/sql/ledger-commit.sql',
  'packages/ledger-store/src/sql/project-ledger-events.sql',
];

export class LiveSqlFailed extends Error {
  constructor(file: string, cause: unknown) {
    super(
      `live SQL ${file} failed: ${failureReason(cause)}. Nothing of this start was applied; the schema is as it was.`,
      {
        cause,
      },
    );
    this.name = 'LiveSqlFailed';
  }
}

export async function createLiveSqlTable(db: Kysely<Database>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(LIVE_SQL_TABLE)} (
      file text PRIMARY KEY,
      sha256 char(64) NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}

/**
 * Runs each live SQL file whose bytes differ from those last applied to
 * this database (CREATE OR REPLACE, so running one again changes nothing),
 * and records what it ran. `files` are paths from `root`. Returns the files
 * it ran. Called inside the migrator's transaction, after the migrations.
 */
export async function applyLiveSql(db: Kysely<Database>, files: readonly string[], root = ROOT): Promise<string[]> {
  const { rows } = await sql<{ file: string; sha256: string }>`
    SELECT file, sha256 FROM ${sql.table(LIVE_SQL_TABLE)}
  `.execute(db);
  const applied = new Map(rows.map((row) => [row.file, row.sha256]));
  const ran: string[] = [];
  for (const file of files) {
    const bytes = await readFile(path.resolve(root, file));
    const checksum = sha256(bytes);
    if (applied.get(file) === checksum) continue;
    try {
      await sql.raw(bytes.toString('utf8')).execute(db);
    } catch (error) {
      throw new LiveSqlFailed(file, error);
    }
    await sql`
      INSERT INTO ${sql.table(LIVE_SQL_TABLE)} (file, sha256) VALUES (${file}, ${checksum})
      ON CONFLICT (file) DO UPDATE SET sha256 = excluded.sha256, applied_at = now()
    `.execute(db);
    ran.push(file);
  }
  return ran;
}
