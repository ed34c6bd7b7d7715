-- Projects events (p_projections, a JSON array of what projectionOf returns,
-- the i-th at position p_positions[i]) that share no wallet, coin or
-- transaction: in practice one event at a time, as the verify rebuild
-- replays the log, so that the live rows (written by ledger_commit) and the
-- rebuilt ones come from two different computations. Tables are
-- unqualified, so the rebuild points it at a scratch schema with
-- search_path. Joins against the JSON also name the rows by key
-- (= ANY(array)), so that the plan probes the primary key instead of
-- scanning the table. Plans are generic and never scan a table (see
-- ledger-state.sql).
--
-- This file is the live body: every start applies it when it differs from
-- the copy applied last (docs/architecture/live-sql.md). Change it here,
-- never in a migration.
CREATE OR REPLACE FUNCTION project_ledger_events(p_positions bigint[], p_projections jsonb)
RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_wallets text[];
  v_serials text[];
  v_count integer;
  v_tx_ids text[];
  v_updated integer;
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

  INSERT INTO coins (serial, holder, value, status, parent_serial, minted_tx_id, tx_ids, matures_at)
  SELECT c.serial, c.holder, c.value, c.status, c.parent_serial, c.minted_tx_id, ARRAY[c.minted_tx_id], c.matures_at
  FROM jsonb_array_elements(p_projections) p,
    jsonb_to_recordset(p->'coinsCreated') AS c(serial text, holder text, value bigint, status text, parent_serial text, minted_tx_id text, matures_at timestamptz);

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

  -- A transaction's first event (version 1) inserts its row: its stream
  -- was claimed new in this commit, so no row can exist. Later events
  -- update it.
  INSERT INTO ledger_transactions
  SELECT r.* FROM jsonb_array_elements(p_projections) p, jsonb_populate_record(NULL::ledger_transactions, p->'transaction') r
  WHERE r.version = 1;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count < jsonb_array_length(p_projections) THEN
    v_tx_ids := ARRAY(SELECT p->'transaction'->>'tx_id' FROM jsonb_array_elements(p_projections) p WHERE (p->'transaction'->>'version')::integer > 1);
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
    FROM jsonb_array_elements(p_projections) p, jsonb_populate_record(NULL::ledger_transactions, p->'transaction') r
    WHERE t.tx_id = ANY(v_tx_ids) AND t.tx_id = r.tx_id AND r.version > 1;
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> cardinality(v_tx_ids) THEN
      RAISE EXCEPTION 'projecting the events at %: transactions % are not each one row', p_positions, v_tx_ids;
    END IF;
  END IF;

  -- A return adds to its sale's sum, a refused card refund takes it off
  -- (ledger-commit.sql does the same).
  v_tx_ids := ARRAY(SELECT p->'saleReturn'->>'sale_tx_id' FROM jsonb_array_elements(p_projections) p WHERE jsonb_typeof(p->'saleReturn') = 'object');
  IF cardinality(v_tx_ids) > 0 THEN
    UPDATE ledger_transactions AS t SET
      returned_amount = t.returned_amount + (p->'saleReturn'->>'amount')::bigint,
      return_date = coalesce((p->'saleReturn'->>'return_date')::timestamptz, t.return_date)
    FROM jsonb_array_elements(p_projections) p
    WHERE t.tx_id = ANY(v_tx_ids) AND t.tx_id = p->'saleReturn'->>'sale_tx_id';
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> cardinality(v_tx_ids) THEN
      RAISE EXCEPTION 'projecting the events at %: returned sales % are not each one row', p_positions, v_tx_ids;
    END IF;
  END IF;

  -- Ledger ids are position.index, in the order of the event's postings.
  INSERT INTO ledger_entries (ledger_id, tx_id, account_id, entry_date, type, amount, currency, debit_credit, event_position)
  SELECT p_positions[p.i] || '.' || (e.n - 1), e.tx_id, e.account_id, e.entry_date, e.type, e.amount, e.currency, e.debit_credit, p_positions[p.i]
  FROM jsonb_array_elements(p_projections) WITH ORDINALITY AS p(projection, i),
    ROWS FROM (jsonb_to_recordset(p.projection->'entries') AS (
      tx_id text, account_id text, entry_date timestamptz, type text, amount bigint, currency text, debit_credit char(1)
    )) WITH ORDINALITY AS e(tx_id, account_id, entry_date, type, amount, currency, debit_credit, n);
END
$$;
