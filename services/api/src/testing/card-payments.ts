import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';

/**
 * Runs `step` while the ledger cannot store an event of `eventType`, as if
 * the process died after the card was charged and before the ledger wrote;
 * the trigger is gone again afterwards, whatever happened.
 */
export async function crashingBefore<T>(db: Kysely<Database>, eventType: string, step: () => Promise<T>): Promise<T> {
  await sql`
    CREATE FUNCTION simulated_crash() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'simulated crash'; END $$
  `.execute(db);
  await sql`CREATE TRIGGER simulated_crash BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.type = ${sql.lit(eventType)}) EXECUTE FUNCTION simulated_crash()`.execute(
    db,
  );
  try {
    return await step();
  } finally {
    await sql`DROP TRIGGER simulated_crash ON events; DROP FUNCTION simulated_crash();`.execute(db);
  }
}
