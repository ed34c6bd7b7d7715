import { sql, type Kysely } from 'kysely';

/**
 * The append-only event store. `transaction_id` records the writing
 * transaction so that a global reader can stop below the oldest transaction
 * still running (see readAll) and never skip an event committed late.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE streams (
      stream_id text PRIMARY KEY CHECK (length(stream_id) BETWEEN 1 AND 200),
      version bigint NOT NULL CHECK (version > 0),
      last_hash char(64) NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE events (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      stream_id text NOT NULL REFERENCES streams (stream_id),
      stream_version bigint NOT NULL CHECK (stream_version > 0),
      type text NOT NULL CHECK (length(type) BETWEEN 1 AND 100),
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      prev_hash char(64) NOT NULL,
      hash char(64) NOT NULL,
      UNIQUE (stream_id, stream_version)
    );

    CREATE INDEX events_global_order ON events (transaction_id, position);

    CREATE FUNCTION refuse_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'events are append-only: % on events is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
    END
    $$;

    CREATE TRIGGER events_append_only
      BEFORE UPDATE OR DELETE ON events
      FOR EACH ROW EXECUTE FUNCTION refuse_event_change();

    CREATE TRIGGER events_no_truncate
      BEFORE TRUNCATE ON events
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_event_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE events;
    DROP TABLE streams;
    DROP FUNCTION refuse_event_change();
  `.execute(db);
}
