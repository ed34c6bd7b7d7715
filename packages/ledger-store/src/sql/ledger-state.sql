-- Reads what a ledger command decides against, in one round trip: the
-- wallets named (locked in id order when p_lock, inside a caller's
-- transaction), and each spender's held coins in spending order (largest
-- first), as many as cover p_coin_amounts[i]: a few usually do, so it reads
-- a few, then more. The amount is numeric because it is not checked yet:
-- the decision refuses a bad one. A cash-out (p_coin_cash_out_at[i] not
-- null) counts only the coins matured by then towards its amount: coins
-- bought by card mature before they can be withdrawn as cash, so it may
-- read more, up to all of them. Returns {wallets, coins: {holder:
-- [{serial, value, maturesAt?}]}, complete: [holders whose held coins were
-- all read]}:
-- change coming back to a spender whose coins were not all read can be
-- placed only ahead of the last coin read (see batch-state.ts).
--
-- Plans are generic (made once per connection) and never scan a table:
-- every statement names its rows by key, so an index probe is right at any
-- table size, whatever the statistics of the moment say.
--
-- This file is the live body: every start applies it when it differs from
-- the copy applied last (docs/architecture/live-sql.md). Change it here,
-- never in a migration.
CREATE OR REPLACE FUNCTION ledger_state(
  p_wallet_ids text[], p_lock boolean, p_coin_holders text[], p_coin_amounts numeric[], p_coin_cash_out_at timestamptz[]
)
RETURNS json LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_wallets json;
  v_coins jsonb := '{}';
  v_complete text[] := '{}';
  v_held json;
  v_count integer;
  v_limit integer;
  v_covered boolean;
BEGIN
  IF p_lock THEN
    SELECT json_agg(w) INTO v_wallets FROM (
      SELECT * FROM wallets WHERE wallet_id = ANY(p_wallet_ids) ORDER BY wallet_id COLLATE "C" FOR UPDATE
    ) w;
  ELSE
    SELECT json_agg(w) INTO v_wallets FROM wallets w WHERE wallet_id = ANY(p_wallet_ids);
  END IF;

  -- Each spender's held coins in spending order (largest first), as many
  -- as cover its amount: a few usually do, so read a few, then more.
  FOR i IN 1 .. coalesce(cardinality(p_coin_holders), 0) LOOP
    v_limit := 16;
    LOOP
      SELECT json_agg(json_strip_nulls(json_build_object('serial', c.serial, 'value', c.value, 'maturesAt', c.matures_at))),
        coalesce(sum(c.value) FILTER (
          WHERE p_coin_cash_out_at[i] IS NULL OR c.matures_at IS NULL OR c.matures_at <= p_coin_cash_out_at[i]
        ), 0) >= p_coin_amounts[i],
        count(*)
      INTO v_held, v_covered, v_count
      FROM (
        SELECT serial, value, matures_at FROM coins WHERE holder = p_coin_holders[i] AND status = 'held'
        ORDER BY value DESC, serial COLLATE "C" LIMIT v_limit
      ) c;
      EXIT WHEN v_covered OR v_count < v_limit;
      v_limit := v_limit * 8;
    END LOOP;
    v_coins := v_coins || jsonb_build_object(p_coin_holders[i], coalesce(v_held, '[]'::json));
    IF v_count < v_limit THEN
      v_complete := v_complete || p_coin_holders[i];
    END IF;
  END LOOP;

  RETURN json_build_object('wallets', coalesce(v_wallets, '[]'::json), 'coins', v_coins, 'complete', to_json(v_complete));
END
$$;
