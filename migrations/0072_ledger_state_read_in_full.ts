import { sql, type Kysely } from 'kysely';

/**
 * `ledger_state` also says whose coins it read in full (issue 3's
 * benchmark). The group commit now decides several commands on one wallet
 * in one batch, each against what the ones before it leave. A coin that
 * comes back to a spender (the change of a split) can be placed among the
 * coins read only if nothing unread could come before it: always when every
 * coin was read, else only ahead of the last coin read. The result gains
 * `complete`, the holders read in full; the rest is as in migration 0004,
 * with the settings of migrations 0045 and 0070 (CREATE OR REPLACE drops
 * settings it does not restate). No down: code that does not know
 * `complete` ignores it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION ledger_state(p_wallet_ids text[], p_lock boolean, p_coin_holders text[], p_coin_amounts numeric[])
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
          SELECT json_agg(c), coalesce(sum(c.value), 0) >= p_coin_amounts[i], count(*)
          INTO v_held, v_covered, v_count
          FROM (
            SELECT serial, value FROM coins WHERE holder = p_coin_holders[i] AND status = 'held'
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
  `.execute(db);
}
