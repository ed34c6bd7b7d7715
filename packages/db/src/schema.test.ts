import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATOR_TABLES } from './migrator.ts';
import { schemaColumns } from './schema.ts';
import { createTestDatabase, type TestDatabase } from './testing/database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('Database interface', () => {
  it('lists exactly the columns the migrations create', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' AND table_name <> ALL(${MIGRATOR_TABLES})
    `.execute(database.db);
    const migrated: Record<string, string[]> = {};
    for (const row of rows) (migrated[row.table_name] ??= []).push(row.column_name);
    const declared = Object.fromEntries(
      Object.entries(schemaColumns).map(([table, columns]) => [table, [...columns].sort()]),
    );
    expect(Object.fromEntries(Object.entries(migrated).map(([table, columns]) => [table, columns.sort()]))).toEqual(
      declared,
    );
  });
});
