-- The write half of an append (appendToStream computes the hashes). The
-- first event claims the next version: it goes in only if the stream still
-- ends in the event it was chained from and nobody holds that version. The
-- rest go in only after the claim; nobody else can hold their versions, as
-- any writer after them would have to chain onto our claim, invisible to it
-- until we commit. Returns no rows when the claim failed. A function, so
-- that its plans are cached per session.
--
-- The live body: applied at every start whose copy differs from the one
-- applied last (see docs/architecture/live-sql.md).
CREATE OR REPLACE FUNCTION append_events(
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
