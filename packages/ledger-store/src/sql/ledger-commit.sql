-- Appends and projects a batch of decided commands in one call, provided
-- every wallet in p_wallet_ids is still at its version in p_wallet_versions
-- (else 40001, and nothing is written). The caller decided the batch
-- against those wallets, so it knows every balance, coin holder and status
-- after it: each read-model row is written once, in the state the batch
-- leaves it in, from one flat list per table (commit-batch.ts builds it).
--
-- p_batch: {events: [{stream_id, version, type, data, metadata, created_at,
-- prev_hash, hash}] in the order the batch decided them, wallets:
-- [{wallet_id, total, available, withdrawable, reserved, version}],
-- transactions_new and transactions_changed: [ledger_transactions row],
-- entries: [{event, n, tx_id, account_id, entry_date, type, amount,
-- currency, debit_credit}] (event: the 1-based index of its event in
-- `events`, n: its index among that event's entries), coins_created:
-- [{serial, holder, value, status, parent_serial, minted_tx_id, tx_ids,
-- matures_at}],
-- coins_updated: [{serial, holder, status, tx_ids}] (tx_ids: the
-- transactions of the batch that named the coin, in order), sales_returned:
-- [{sale_tx_id, amount, return_date}] (what the batch's returns give back
-- of each sale, less the returns whose card refund failed; return_date null
-- when the batch made none), origin: who committed it, for the announcement below
-- (absent: nobody in particular)}.
--
-- A transaction's stream is not registered in `streams`: its first event's
-- unique (stream_id, stream_version) key claims it already. Plans are
-- generic and never scan a table (see ledger-state.sql).
--
-- This file is the live body: every start applies it when it differs from
-- the copy applied last (docs/architecture/live-sql.md). Change it here,
-- never in a migration.
CREATE OR REPLACE FUNCTION ledger_commit(p_wallet_ids text[], p_wallet_versions bigint[], p_batch jsonb)
RETURNS TABLE (stream_id text, event_position bigint, event_version bigint, event_transaction_id text)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
-- The output columns are named like the tables' columns: in a statement, a name is the column.
#variable_conflict use_column
DECLARE
  v_unchanged integer;
  -- One stream per transaction, and one row for each.
  v_streams integer := jsonb_array_length(p_batch->'transactions_new') + jsonb_array_length(p_batch->'transactions_changed');
  v_stream_ids text[];
  v_positions bigint[];
  v_versions bigint[];
  v_transaction_ids text[];
  v_count integer;
  v_announcement text;
BEGIN
  SELECT count(*) INTO v_unchanged
  FROM (SELECT w.wallet_id, w.version FROM wallets w WHERE w.wallet_id = ANY(p_wallet_ids) ORDER BY w.wallet_id COLLATE "C" FOR UPDATE) locked
  JOIN unnest(p_wallet_ids, p_wallet_versions) AS r(wallet_id, version) ON locked.wallet_id = r.wallet_id AND locked.version = r.version;
  IF v_unchanged <> cardinality(p_wallet_ids) THEN
    RAISE EXCEPTION 'a wallet changed after it was read' USING ERRCODE = 'serialization_failure';
  END IF;

  -- An event goes in only if nobody holds its version: a transaction's
  -- first event claims its stream (a concurrent writer of the same
  -- transaction waits here, then finds it taken), a follow-up's first
  -- event the version after the head it was decided on. Positions are
  -- taken in the events' order, which is the order the batch decided
  -- them in: a replay in position order meets each wallet's changes in
  -- the order they were decided.
  WITH appended AS (
    INSERT INTO events AS e (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
    SELECT v.stream_id, v.version, v.type, v.data, v.metadata, v.created_at, v.prev_hash, v.hash
    FROM ROWS FROM (jsonb_to_recordset(p_batch->'events') AS (
      stream_id text, version bigint, type text, data jsonb, metadata jsonb, created_at timestamptz, prev_hash text, hash text
    )) WITH ORDINALITY AS v(stream_id, version, type, data, metadata, created_at, prev_hash, hash, i)
    ORDER BY v.i
    ON CONFLICT (stream_id, stream_version) DO NOTHING
    RETURNING e.stream_id, e.position, e.stream_version, e.transaction_id::text AS transaction_id
  )
  SELECT array_agg(a.stream_id ORDER BY a.position), array_agg(a.position ORDER BY a.position),
         array_agg(a.stream_version ORDER BY a.position), array_agg(a.transaction_id ORDER BY a.position)
  INTO v_stream_ids, v_positions, v_versions, v_transaction_ids
  FROM appended a;
  IF coalesce(cardinality(v_positions), 0) < jsonb_array_length(p_batch->'events') THEN
    -- Alone with nothing written (the transaction exists, or its stream
    -- moved on), return no rows. In a batch, the others must not commit
    -- without it: refuse the whole batch.
    IF v_streams = 1 AND v_positions IS NULL THEN
      RETURN;
    END IF;
    RAISE EXCEPTION 'a transaction stream of the batch moved on' USING ERRCODE = CASE WHEN v_streams = 1 THEN 'serialization_failure' ELSE 'PK001' END;
  END IF;

  -- The updates name their rows by key (= ANY) as well as by the join:
  -- otherwise a generic plan made while a table was small hashes the
  -- whole table's index for the join, and keeps doing so as the table
  -- grows (see migration 0070).

  -- Only wallets locked and checked above: a balance is written whole,
  -- so one that was not read with the batch would be overwritten.
  UPDATE wallets AS w SET total = b.total, available = b.available, withdrawable = b.withdrawable, reserved = b.reserved, version = b.version
  FROM jsonb_to_recordset(p_batch->'wallets') AS b(wallet_id text, total bigint, available bigint, withdrawable bigint, reserved bigint, version bigint)
  WHERE w.wallet_id = b.wallet_id AND w.wallet_id = ANY(p_wallet_ids);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> jsonb_array_length(p_batch->'wallets') THEN
    RAISE EXCEPTION 'committing %: the batch writes wallets it did not read', v_stream_ids;
  END IF;

  INSERT INTO coins (serial, holder, value, status, parent_serial, minted_tx_id, tx_ids, matures_at)
  SELECT c.serial, c.holder, c.value, c.status, c.parent_serial, c.minted_tx_id, c.tx_ids, c.matures_at
  FROM jsonb_to_recordset(p_batch->'coins_created') AS c(
    serial text, holder text, value bigint, status text, parent_serial text, minted_tx_id text, tx_ids text[], matures_at timestamptz
  );

  -- A follow-up of a transaction may name a coin that transaction named before: its id goes in once.
  UPDATE coins AS c SET
    holder = u.holder,
    status = u.status,
    tx_ids = c.tx_ids || ARRAY(SELECT t.tx_id FROM unnest(u.tx_ids) WITH ORDINALITY AS t(tx_id, n) WHERE t.tx_id <> ALL(c.tx_ids) ORDER BY t.n)
  FROM jsonb_to_recordset(p_batch->'coins_updated') AS u(serial text, holder text, status text, tx_ids text[])
  WHERE c.serial = ANY(ARRAY(SELECT x->>'serial' FROM jsonb_array_elements(p_batch->'coins_updated') x)) AND c.serial = u.serial;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> jsonb_array_length(p_batch->'coins_updated') THEN
    RAISE EXCEPTION 'committing %: coins changed by the batch are not each one coin', v_stream_ids;
  END IF;

  -- A new transaction's stream was claimed above, so it has no row yet.
  INSERT INTO ledger_transactions
  SELECT r.* FROM jsonb_populate_recordset(NULL::ledger_transactions, p_batch->'transactions_new') r;

  IF jsonb_array_length(p_batch->'transactions_changed') > 0 THEN
    UPDATE ledger_transactions AS t SET
      type = r.type, state = r.state, tx_class = r.tx_class, entry_date = r.entry_date,
      updated_at = r.updated_at, amount = r.amount, fee = r.fee, currency = r.currency,
      payer_owner_id = r.payer_owner_id, payer_wallet_id = r.payer_wallet_id,
      payee_owner_id = r.payee_owner_id, payee_wallet_id = r.payee_wallet_id,
      merchant_id = r.merchant_id, merchant_batch_id = r.merchant_batch_id,
      payment_method_id = r.payment_method_id, payment_method_type = r.payment_method_type,
      reference = r.reference, reason = r.reason, hold_amount = r.hold_amount,
      hold_release_at = r.hold_release_at, hold_released_at = r.hold_released_at,
      expires_at = r.expires_at, reserved_coins = r.reserved_coins, version = r.version
    FROM jsonb_populate_recordset(NULL::ledger_transactions, p_batch->'transactions_changed') r
    WHERE t.tx_id = ANY(ARRAY(SELECT x->>'tx_id' FROM jsonb_array_elements(p_batch->'transactions_changed') x)) AND t.tx_id = r.tx_id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> jsonb_array_length(p_batch->'transactions_changed') THEN
      RAISE EXCEPTION 'committing %: transactions changed by the batch are not each one row', v_stream_ids;
    END IF;
  END IF;

  -- A return adds to its sale's sum under the sale row's lock, and only
  -- while the sum stays within the sale: a return decided on a stale sum
  -- fails here as a collision (40001), and is decided again on a fresh
  -- read. Written this way, and never as a whole row, the sum cannot be
  -- overwritten by a commit that read it earlier.
  IF jsonb_array_length(coalesce(p_batch->'sales_returned', '[]'::jsonb)) > 0 THEN
    UPDATE ledger_transactions AS t SET returned_amount = t.returned_amount + r.amount, return_date = coalesce(r.return_date, t.return_date)
    FROM jsonb_to_recordset(p_batch->'sales_returned') AS r(sale_tx_id text, amount bigint, return_date timestamptz)
    WHERE t.tx_id = ANY(ARRAY(SELECT x->>'sale_tx_id' FROM jsonb_array_elements(p_batch->'sales_returned') x))
      AND t.tx_id = r.sale_tx_id AND t.returned_amount + r.amount <= t.amount;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> jsonb_array_length(p_batch->'sales_returned') THEN
      RAISE EXCEPTION 'committing %: a return is more than what is left of its sale', v_stream_ids USING ERRCODE = 'serialization_failure';
    END IF;
  END IF;

  -- Ledger ids are position.index, in the order of the event's postings.
  INSERT INTO ledger_entries (ledger_id, tx_id, account_id, entry_date, type, amount, currency, debit_credit, event_position)
  SELECT v_positions[e.event] || '.' || e.n, e.tx_id, e.account_id, e.entry_date, e.type, e.amount, e.currency, e.debit_credit, v_positions[e.event]
  FROM jsonb_to_recordset(p_batch->'entries') AS e(
    event integer, n integer, tx_id text, account_id text, entry_date timestamptz, type text, amount bigint, currency text, debit_credit char(1)
  );

  -- Announces the wallets' new versions at commit ("origin wallet version
  -- …"), so that a process that knows one at an older version reads it
  -- before deciding on it again instead of committing into the version
  -- check above (known-wallets.ts). Past NOTIFY's 8000-byte limit: "origin
  -- *", forget every wallet.
  SELECT concat_ws(' ', coalesce(p_batch->>'origin', '-'), string_agg((b->>'wallet_id') || ' ' || (b->>'version'), ' '))
  INTO v_announcement FROM jsonb_array_elements(p_batch->'wallets') b;
  PERFORM pg_notify('ledger_wallets', CASE WHEN octet_length(v_announcement) <= 7900 THEN v_announcement ELSE coalesce(p_batch->>'origin', '-') || ' *' END);

  RETURN QUERY SELECT * FROM unnest(v_stream_ids, v_positions, v_versions, v_transaction_ids);
END
$$;
