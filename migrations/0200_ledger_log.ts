import { sql, type Kysely } from 'kysely';

/**
 * The ledger log (docs/architecture/ledger-log.md): every event, in commit
 * order, as a leaf of an RFC 9162 Merkle tree. The sequencer fills it after
 * the fact, so nothing here is touched by an append.
 *
 * - `ledger_log_leaves`: which event each log index is, and its leaf data
 *   (the event's chain hash), so a proof needs no join and a missing event is
 *   seen by `ledger:verify`.
 * - `ledger_log_nodes`: every complete subtree's hash, level 0 being the
 *   leaf hashes; node i of level l covers leaves [i·2^l, (i+1)·2^l). Any
 *   root and proof is a handful of lookups.
 * - `ledger_log_checkpoints`: each signed checkpoint, as its note.
 * - `ledger_log_witnesses`: each witness's last delivery, for the console.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ledger_log_leaves (
      log_index bigint PRIMARY KEY CHECK (log_index >= 0),
      stream_id text NOT NULL,
      stream_version bigint NOT NULL,
      leaf_data bytea NOT NULL CHECK (length(leaf_data) = 32),
      sequenced_at timestamptz NOT NULL,
      UNIQUE (stream_id, stream_version)
    );
    CREATE TABLE ledger_log_nodes (
      level smallint NOT NULL CHECK (level BETWEEN 0 AND 62),
      node_index bigint NOT NULL CHECK (node_index >= 0),
      hash bytea NOT NULL CHECK (length(hash) = 32),
      PRIMARY KEY (level, node_index)
    );
    CREATE TABLE ledger_log_checkpoints (
      tree_size bigint PRIMARY KEY CHECK (tree_size > 0),
      root_hash bytea NOT NULL CHECK (length(root_hash) = 32),
      note text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE TABLE ledger_log_witnesses (
      witness text PRIMARY KEY,
      tree_size bigint NOT NULL,
      attempted_at timestamptz NOT NULL,
      delivered boolean NOT NULL,
      error text
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE ledger_log_witnesses, ledger_log_checkpoints, ledger_log_nodes, ledger_log_leaves`.execute(db);
}
