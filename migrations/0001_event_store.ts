import { sql, type Kysely } from 'kysely';

/**
 * The append-only event store. The unique (stream_id, stream_version) index
 * is what makes an append a compare-and-set: exactly one writer gets each
 * version. `transaction_id` records the writing transaction so that a global
 * reader can stop below the oldest transaction still running (see readAll)
 * and never skip an event committed late. `streams` registers each stream
 * once; a stream's head is its last event, read through the unique index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE streams (
      stream_id text PRIMARY KEY CHECK (length(stream_id) BETWEEN 1 AND 200),
      created_at timestamptz NOT NULL
    );

    CREATE TABLE events (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      stream_id text NOT NULL,
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

    -- The write half of an append (the hashes are computed by the caller).
    -- The first event claims the next version: it goes in only if the stream
    -- still ends in the event it was chained from and nobody holds that
    -- version. The rest go in only after the claim; nobody else can hold
    -- their versions, as any writer after them would have to chain onto our
    -- claim, invisible to it until we commit. Returns no rows when the claim
    -- failed. A function, so that its plans are cached per session.
    CREATE FUNCTION append_events(
      p_stream_id text,
      p_head_version bigint,
      p_head_hash text,
      p_types text[],
      p_data text[],
      p_metadata jsonb,
      p_created_at timestamptz,
      p_hashes text[]
    ) RETURNS TABLE (event_position bigint, event_version bigint, event_transaction_id text)
    LANGUAGE plpgsql AS $$
    BEGIN
      IF p_head_version = 0 THEN
        INSERT INTO streams (stream_id, created_at) VALUES (p_stream_id, p_created_at) ON CONFLICT DO NOTHING;
      ELSIF NOT EXISTS (
        SELECT 1 FROM events AS e
        WHERE e.stream_id = p_stream_id AND e.stream_version = p_head_version AND e.hash = p_head_hash
      ) THEN
        RETURN;
      END IF;

      INSERT INTO events AS e (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
      VALUES (p_stream_id, p_head_version + 1, p_types[1], p_data[1]::jsonb, p_metadata, p_created_at, p_head_hash, p_hashes[1])
      ON CONFLICT (stream_id, stream_version) DO NOTHING
      RETURNING e.position, e.stream_version, e.transaction_id::text
      INTO event_position, event_version, event_transaction_id;
      IF NOT FOUND THEN
        RETURN;
      END IF;
      RETURN NEXT;
      IF cardinality(p_types) = 1 THEN
        RETURN;
      END IF;

      RETURN QUERY
        INSERT INTO events AS e (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
        SELECT p_stream_id, p_head_version + i, p_types[i], p_data[i]::jsonb, p_metadata, p_created_at, p_hashes[i - 1], p_hashes[i]
        FROM generate_subscripts(p_types, 1) AS i
        WHERE i > 1
        ORDER BY i
        RETURNING e.position, e.stream_version, e.transaction_id::text;
    END
    $$;

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
    DROP FUNCTION append_events(text, bigint, text, text[], text[], jsonb, timestamptz, text[]);
    DROP FUNCTION refuse_event_change();
  `.execute(db);
}
