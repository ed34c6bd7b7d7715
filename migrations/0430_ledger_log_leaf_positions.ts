import { sql, type Kysely } from 'kysely';

/**
 * A ledger log leaf names its event by the event's position (its identity,
 * kept by a dump and restore) instead of stream id and version, and keeps no
 * time of its own (docs/architecture/ledger-log.md): a leaf row is a third
 * as wide and its unique index a bigint's instead of a text's, which made
 * the sequencer's inserts most of its cost to Postgres. The table is
 * rebuilt rather than altered so that the old columns' room goes with it.
 *
 * A leaf whose event is gone cannot be carried over, and dropping it would
 * hide what `ledger:verify` must report: the migration stops instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ledger_log_leaves RENAME TO ledger_log_leaves_by_stream;
    CREATE TABLE ledger_log_leaves (
      log_index bigint PRIMARY KEY CHECK (log_index >= 0),
      event_position bigint NOT NULL UNIQUE,
      leaf_data bytea NOT NULL CHECK (length(leaf_data) = 32)
    );
    INSERT INTO ledger_log_leaves (log_index, event_position, leaf_data)
    SELECT l.log_index, e.position, l.leaf_data
    FROM ledger_log_leaves_by_stream l
    JOIN events e ON e.stream_id = l.stream_id AND e.stream_version = l.stream_version;
    DO $$
    DECLARE
      lost bigint;
    BEGIN
      SELECT min(l.log_index) INTO lost FROM ledger_log_leaves_by_stream l
      WHERE NOT EXISTS (SELECT 1 FROM ledger_log_leaves n WHERE n.log_index = l.log_index);
      IF lost IS NOT NULL THEN
        RAISE EXCEPTION 'ledger log leaf % names an event that is gone: run ledger:verify on the previous release', lost;
      END IF;
    END $$;
    DROP TABLE ledger_log_leaves_by_stream;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ledger_log_leaves RENAME TO ledger_log_leaves_by_position;
    CREATE TABLE ledger_log_leaves (
      log_index bigint PRIMARY KEY CHECK (log_index >= 0),
      stream_id text NOT NULL,
      stream_version bigint NOT NULL,
      leaf_data bytea NOT NULL CHECK (length(leaf_data) = 32),
      sequenced_at timestamptz NOT NULL,
      UNIQUE (stream_id, stream_version)
    );
    INSERT INTO ledger_log_leaves (log_index, stream_id, stream_version, leaf_data, sequenced_at)
    SELECT l.log_index, e.stream_id, e.stream_version, l.leaf_data, e.created_at
    FROM ledger_log_leaves_by_position l JOIN events e ON e.position = l.event_position;
    DROP TABLE ledger_log_leaves_by_position;
  `.execute(db);
}
