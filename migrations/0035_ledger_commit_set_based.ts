import { sql, type Kysely } from 'kysely';

/**
 * The ledger commit, cheaper per transfer (issue 3's benchmark): Postgres
 * spent most of a transfer on statements, not rows, so a batch now costs a
 * fixed number of statements whatever its size.
 *
 * - `ledger_commit` appends every event of the batch in one INSERT and
 *   projects them with `project_ledger_events`, one statement per table for
 *   the whole batch. Event data arrives as JSON objects inside the batch,
 *   parsed once, instead of JSON text inside JSON.
 * - `coin_audit` is gone: a transaction's coin audit is derived from its own
 *   events (coinAuditOf is pure), and a coin's trail from the transactions
 *   listed in the new `coins.tx_ids` (every transaction whose events name the
 *   serial, in the order they first did). That is four rows and twelve index
 *   entries fewer per transfer; the array rides on coin updates a transfer
 *   makes anyway.
 *
 * No down: the dropped audit rows are facts of the log, which a restore of
 * the previous version would rebuild with ledger:verify's replay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE coins ADD COLUMN tx_ids text[];
    UPDATE coins AS c SET tx_ids = coalesce((
      SELECT array_agg(a.tx_id ORDER BY a.first_position)
      FROM (SELECT tx_id, min(event_position) AS first_position FROM coin_audit WHERE serial = c.serial GROUP BY tx_id) a
    ), ARRAY[c.minted_tx_id]);
    ALTER TABLE coins ALTER COLUMN tx_ids SET NOT NULL;
    DROP TABLE coin_audit;

    DROP FUNCTION ledger_commit(text[], bigint[], jsonb);
    DROP FUNCTION project_ledger_event(bigint, jsonb);

    -- Projects events (p_projections, a JSON array, the i-th at position
    -- p_positions[i]) that share no wallet, coin or transaction: the same
    -- event of several transactions in a batch, or one event in a rebuild.
    -- Joins against the JSON also name the rows by key (= ANY(array)), so
    -- that the plan probes the primary key instead of scanning the table.
    -- Tables are unqualified, so a rebuild points it at a scratch schema with
    -- search_path.
    CREATE FUNCTION project_ledger_events(p_positions bigint[], p_projections jsonb)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_wallets text[];
      v_serials text[];
      v_count integer;
    BEGIN
      v_wallets := ARRAY(SELECT b->>'wallet_id' FROM jsonb_array_elements(p_projections) p, jsonb_array_elements(p->'balances') b);
      IF cardinality(v_wallets) > 0 THEN
        UPDATE wallets AS w SET
          total = w.total + b.total,
          available = w.available + b.available,
          reserved = w.reserved + b.reserved,
          withdrawable = LEAST(w.withdrawable + b.withdrawable, w.available + b.available),
          version = w.version + 1
        FROM jsonb_array_elements(p_projections) p,
          jsonb_to_recordset(p->'balances') AS b(wallet_id text, total bigint, available bigint, withdrawable bigint, reserved bigint)
        WHERE w.wallet_id = ANY(v_wallets) AND w.wallet_id = b.wallet_id;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        -- Every wallet an event names exists, because it was decided against
        -- it, and appears once. Otherwise it is a bug: fail, and roll back.
        IF v_count <> cardinality(v_wallets) THEN
          RAISE EXCEPTION 'projecting the events at %: wallets % are not each one wallet', p_positions, v_wallets;
        END IF;
      END IF;

      INSERT INTO coins (serial, holder, value, status, parent_serial, minted_tx_id, tx_ids)
      SELECT c.serial, c.holder, c.value, c.status, c.parent_serial, c.minted_tx_id, ARRAY[c.minted_tx_id]
      FROM jsonb_array_elements(p_projections) p,
        jsonb_to_recordset(p->'coinsCreated') AS c(serial text, holder text, value bigint, status text, parent_serial text, minted_tx_id text);

      v_serials := ARRAY(SELECT c->>'serial' FROM jsonb_array_elements(p_projections) p, jsonb_array_elements(p->'coinsUpdated') c);
      IF cardinality(v_serials) > 0 THEN
        UPDATE coins AS c SET
          holder = u.holder,
          status = u.status,
          tx_ids = CASE WHEN p->'transaction'->>'tx_id' = ANY(c.tx_ids) THEN c.tx_ids ELSE c.tx_ids || (p->'transaction'->>'tx_id') END
        FROM jsonb_array_elements(p_projections) p,
          jsonb_to_recordset(p->'coinsUpdated') AS u(serial text, holder text, status text)
        WHERE c.serial = ANY(v_serials) AND c.serial = u.serial;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        IF v_count <> cardinality(v_serials) THEN
          RAISE EXCEPTION 'projecting the events at %: coins % are not each one coin', p_positions, v_serials;
        END IF;
      END IF;

      INSERT INTO ledger_transactions AS t
      SELECT r.* FROM jsonb_array_elements(p_projections) p, jsonb_populate_record(NULL::ledger_transactions, p->'transaction') r
      ON CONFLICT (tx_id) DO UPDATE SET
        type = excluded.type, state = excluded.state, tx_class = excluded.tx_class, entry_date = excluded.entry_date,
        updated_at = excluded.updated_at, amount = excluded.amount, fee = excluded.fee, currency = excluded.currency,
        payer_owner_id = excluded.payer_owner_id, payer_wallet_id = excluded.payer_wallet_id,
        payee_owner_id = excluded.payee_owner_id, payee_wallet_id = excluded.payee_wallet_id,
        merchant_id = excluded.merchant_id, merchant_batch_id = excluded.merchant_batch_id,
        payment_method_id = excluded.payment_method_id, payment_method_type = excluded.payment_method_type,
        reference = excluded.reference, reason = excluded.reason, hold_amount = excluded.hold_amount,
        hold_release_at = excluded.hold_release_at, hold_released_at = excluded.hold_released_at,
        expires_at = excluded.expires_at, reserved_coins = excluded.reserved_coins, version = excluded.version;

      -- Ledger ids are position.index, in the order of the event's postings.
      INSERT INTO ledger_entries (ledger_id, tx_id, account_id, entry_date, type, amount, currency, debit_credit, event_position)
      SELECT p_positions[p.i] || '.' || (e.n - 1), e.tx_id, e.account_id, e.entry_date, e.type, e.amount, e.currency, e.debit_credit, p_positions[p.i]
      FROM jsonb_array_elements(p_projections) WITH ORDINALITY AS p(projection, i),
        ROWS FROM (jsonb_to_recordset(p.projection->'entries') AS (
          tx_id text, account_id text, entry_date timestamptz, type text, amount bigint, currency text, debit_credit char(1)
        )) WITH ORDINALITY AS e(tx_id, account_id, entry_date, type, amount, currency, debit_credit, n);
    END
    $$;

    -- p_batch: {streams: [{stream_id, head_version, head_hash, created_at}],
    -- events: [{stream_id, version, type, data, metadata, created_at,
    -- prev_hash, hash}], projections: [[projection, ...], ...]}: one stream
    -- per transaction; the events in rounds, the first event of every stream,
    -- then the second, and so on (so positions follow versions, and a round's
    -- events share no wallet or coin); the projections in the same order,
    -- one array per round.
    CREATE FUNCTION ledger_commit(p_wallet_ids text[], p_wallet_versions bigint[], p_batch jsonb)
    RETURNS TABLE (stream_id text, event_position bigint, event_version bigint, event_transaction_id text)
    LANGUAGE plpgsql AS $$
    -- The output columns are named like the tables' columns: in a statement, a name is the column.
    #variable_conflict use_column
    DECLARE
      v_unchanged integer;
      v_streams integer := jsonb_array_length(p_batch->'streams');
      v_claimed integer;
      v_heads integer;
      v_stream_ids text[];
      v_positions bigint[];
      v_versions bigint[];
      v_transaction_ids text[];
      v_round jsonb;
      v_count integer;
      v_projected integer := 0;
    BEGIN
      SELECT count(*) INTO v_unchanged
      FROM (SELECT w.wallet_id, w.version FROM wallets w WHERE w.wallet_id = ANY(p_wallet_ids) ORDER BY w.wallet_id COLLATE "C" FOR UPDATE) locked
      JOIN unnest(p_wallet_ids, p_wallet_versions) AS r(wallet_id, version) ON locked.wallet_id = r.wallet_id AND locked.version = r.version;
      IF v_unchanged <> cardinality(p_wallet_ids) THEN
        RAISE EXCEPTION 'a wallet changed after it was read' USING ERRCODE = 'serialization_failure';
      END IF;

      -- Claim each stream: a new one by registering it (a concurrent writer
      -- of the same transaction waits here, then finds it taken), a follow-up
      -- by finding its head where it was read.
      INSERT INTO streams (stream_id, created_at)
      SELECT s.stream_id, s.created_at FROM jsonb_to_recordset(p_batch->'streams') AS s(stream_id text, head_version bigint, created_at timestamptz)
      WHERE s.head_version = 0
      ON CONFLICT DO NOTHING;
      GET DIAGNOSTICS v_claimed = ROW_COUNT;
      IF v_claimed < v_streams THEN
        SELECT count(*) INTO v_heads
        FROM jsonb_to_recordset(p_batch->'streams') AS s(stream_id text, head_version bigint, head_hash text)
        JOIN LATERAL (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id AND e.stream_version = s.head_version AND e.hash = s.head_hash) head ON true
        WHERE s.head_version > 0;
        IF v_claimed + v_heads < v_streams THEN
          -- The stream had moved on (a retry of a transaction that exists).
          -- Alone, nothing was written: return no rows. In a batch, the
          -- others must not commit without it: refuse the whole batch.
          IF v_streams = 1 THEN
            RETURN;
          END IF;
          RAISE EXCEPTION 'a transaction stream of the batch exists already' USING ERRCODE = 'PK001';
        END IF;
      END IF;

      WITH appended AS (
        INSERT INTO events AS e (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
        SELECT v.stream_id, v.version, v.type, v.data, v.metadata, v.created_at, v.prev_hash, v.hash
        FROM jsonb_to_recordset(p_batch->'events') AS v(
          stream_id text, version bigint, type text, data jsonb, metadata jsonb, created_at timestamptz, prev_hash text, hash text
        )
        ON CONFLICT (stream_id, stream_version) DO NOTHING
        RETURNING e.stream_id, e.position, e.stream_version, e.transaction_id::text AS transaction_id
      )
      SELECT array_agg(a.stream_id ORDER BY a.position), array_agg(a.position ORDER BY a.position),
             array_agg(a.stream_version ORDER BY a.position), array_agg(a.transaction_id ORDER BY a.position)
      INTO v_stream_ids, v_positions, v_versions, v_transaction_ids
      FROM appended a;
      IF coalesce(cardinality(v_positions), 0) < jsonb_array_length(p_batch->'events') THEN
        -- A follow-up lost its next version to a concurrent one after its
        -- head was found. Alone with nothing written, return no rows.
        IF v_streams = 1 AND v_positions IS NULL THEN
          RETURN;
        END IF;
        RAISE EXCEPTION 'a transaction stream of the batch moved on' USING ERRCODE = CASE WHEN v_streams = 1 THEN 'serialization_failure' ELSE 'PK001' END;
      END IF;

      -- Positions were taken in the events' order: round by round, the next
      -- positions are that round's events.
      FOR v_round IN SELECT r.value FROM jsonb_array_elements(p_batch->'projections') r LOOP
        v_count := jsonb_array_length(v_round);
        PERFORM project_ledger_events(v_positions[v_projected + 1 : v_projected + v_count], v_round);
        v_projected := v_projected + v_count;
      END LOOP;

      RETURN QUERY SELECT * FROM unnest(v_stream_ids, v_positions, v_versions, v_transaction_ids);
    END
    $$;
  `.execute(db);
}
