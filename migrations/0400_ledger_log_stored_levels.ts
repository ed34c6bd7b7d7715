import { sql, type Kysely } from 'kysely';

/**
 * The ledger log keeps the nodes of every fourth level only (levels 4, 8, …;
 * docs/architecture/ledger-log.md): the rest are folded from those or from
 * the leaf data when a root or a proof needs them. The rows of the other
 * levels written before are never read again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM ledger_log_nodes WHERE level = 0 OR level % 4 <> 0`.execute(db);
}

// The deleted nodes are recomputed by the same fold if ever needed; nothing to restore.
export async function down(): Promise<void> {}
