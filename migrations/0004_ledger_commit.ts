import { sql, type Kysely } from 'kysely';

/**
 * A ledger command in two round trips and no explicit transaction: one call
 * reads the wallets and coins it decides against (`ledger_state`), one call
 * writes what it decided (`ledger_commit`). Both take several commands at
 * once, so that commands in flight together share them (group commit, see
 * packages/ledger-store/src/group-commit.ts): on a busy server the round
 * trips and statements, more than the rows, are what a command costs.
 *
 * Between the two, another command may change a wallet. So each wallet now
 * carries a `version`, bumped by every event that touches it, and the
 * commit locks the wallets (in id order, as before) and goes on only if
 * every version is still the one read; otherwise it raises a serialization
 * failure (40001), writes nothing, and the caller decides again. Inside a
 * caller's transaction, `ledger_state` takes the locks itself, so the
 * versions cannot move.
 *
 * `project_ledger_event` is the projection of one event, used by the commit
 * and by the verify rebuild alike. Its tables are unqualified, so the
 * rebuild points it at a scratch schema with search_path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE wallets ADD COLUMN version bigint NOT NULL DEFAULT 0;
    -- Room on each page for the new row version, so that a balance update
    -- (no indexed column changes) stays a heap-only update.
    ALTER TABLE wallets SET (fillfactor = 80);

    -- One index for a wallet's coins instead of two (one for spending, one
    -- for listing): every coin row a transfer writes paid for both. Spending
    -- reads it in order, skipping the rare reserved coin; listing pages it.
    DROP INDEX coins_spendable;
    DROP INDEX coins_in_wallet;
    CREATE INDEX coins_in_wallet ON coins (holder, value DESC, serial COLLATE "C") WHERE status IN ('held', 'reserved');

    CREATE FUNCTION ledger_state(p_wallet_ids text[], p_lock boolean, p_coin_holders text[], p_coin_amounts numeric[])
    RETURNS json LANGUAGE plpgsql AS $$
    DECLARE
      v_wallets json;
      v_coins jsonb := '{}';
      v_held json;
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
      -- as cover its amount: a few usually do, so read a few, then more. The
      -- amount is numeric because it is not checked yet: the decision refuses
      -- a bad one.
      FOR i IN 1 .. coalesce(cardinality(p_coin_holders), 0) LOOP
        v_limit := 16;
        LOOP
          SELECT json_agg(c), coalesce(sum(c.value), 0) >= p_coin_amounts[i] OR count(*) < v_limit
          INTO v_held, v_covered
          FROM (
            SELECT serial, value FROM coins WHERE holder = p_coin_holders[i] AND status = 'held'
            ORDER BY value DESC, serial COLLATE "C" LIMIT v_limit
          ) c;
          EXIT WHEN v_covered;
          v_limit := v_limit * 8;
        END LOOP;
        v_coins := v_coins || jsonb_build_object(p_coin_holders[i], coalesce(v_held, '[]'::json));
      END LOOP;

      RETURN json_build_object('wallets', coalesce(v_wallets, '[]'::json), 'coins', v_coins);
    END
    $$;

    -- Rows arrive without the event's position, which only the append
    -- learns: ledger and audit ids are position.index, as the rows' order.
    -- jsonb, parsed once: each -> on json would parse the text again.
    CREATE FUNCTION project_ledger_event(p_position bigint, p_projection jsonb)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_balance record;
      v_coin record;
    BEGIN
      -- Row by row through the primary keys: a join against the JSON would
      -- be planned for a hundred rows, and scan the table.
      FOR v_balance IN
        SELECT * FROM jsonb_to_recordset(p_projection->'balances') AS c(wallet_id text, total bigint, available bigint, withdrawable bigint, reserved bigint)
      LOOP
        UPDATE wallets AS w SET
          total = w.total + v_balance.total,
          available = w.available + v_balance.available,
          reserved = w.reserved + v_balance.reserved,
          withdrawable = LEAST(w.withdrawable + v_balance.withdrawable, w.available + v_balance.available),
          version = w.version + 1
        WHERE w.wallet_id = v_balance.wallet_id;
        -- Every wallet and coin an event names exists, because it was decided
        -- against them. A missing one is a bug: fail, and roll everything back.
        IF NOT FOUND THEN
          RAISE EXCEPTION 'projecting the event at %: no wallet %', p_position, v_balance.wallet_id;
        END IF;
      END LOOP;

      INSERT INTO coins SELECT * FROM jsonb_populate_recordset(NULL::coins, p_projection->'coinsCreated');
      FOR v_coin IN SELECT * FROM jsonb_to_recordset(p_projection->'coinsUpdated') AS c(serial text, holder text, status text) LOOP
        UPDATE coins SET holder = v_coin.holder, status = v_coin.status WHERE serial = v_coin.serial;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'projecting the event at %: no coin %', p_position, v_coin.serial;
        END IF;
      END LOOP;

      INSERT INTO ledger_transactions AS t SELECT * FROM jsonb_populate_record(NULL::ledger_transactions, p_projection->'transaction')
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

      INSERT INTO ledger_entries (ledger_id, tx_id, account_id, entry_date, type, amount, currency, debit_credit, event_position)
      SELECT p_position || '.' || (n - 1), e.tx_id, e.account_id, e.entry_date, e.type, e.amount, e.currency, e.debit_credit, p_position
      FROM ROWS FROM (jsonb_to_recordset(p_projection->'entries') AS (
        tx_id text, account_id text, entry_date timestamptz, type text, amount bigint, currency text, debit_credit char(1)
      )) WITH ORDINALITY AS e(tx_id, account_id, entry_date, type, amount, currency, debit_credit, n);

      INSERT INTO coin_audit (audit_id, tx_id, event_position, serial, action, value, from_account, to_account, parent_serial, entry_date)
      SELECT p_position || '.' || (n - 1), a.tx_id, p_position, a.serial, a.action, a.value, a.from_account, a.to_account, a.parent_serial, a.entry_date
      FROM ROWS FROM (jsonb_to_recordset(p_projection->'audit') AS (
        tx_id text, serial text, action text, value bigint, from_account text, to_account text, parent_serial text, entry_date timestamptz
      )) WITH ORDINALITY AS a(tx_id, serial, action, value, from_account, to_account, parent_serial, entry_date, n);
    END
    $$;

    -- Each append: {stream_id, head_version, head_hash, types, data, hashes,
    -- metadata, created_at, projections}, the arguments of append_events plus
    -- what its events project.
    CREATE FUNCTION ledger_commit(p_wallet_ids text[], p_wallet_versions bigint[], p_appends jsonb)
    RETURNS TABLE (stream_id text, event_position bigint, event_version bigint, event_transaction_id text)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_unchanged integer;
      v_append jsonb;
      v_event record;
      v_appended boolean;
    BEGIN
      SELECT count(*) INTO v_unchanged
      FROM (SELECT wallet_id, version FROM wallets WHERE wallet_id = ANY(p_wallet_ids) ORDER BY wallet_id COLLATE "C" FOR UPDATE) locked
      JOIN unnest(p_wallet_ids, p_wallet_versions) AS r(wallet_id, version) ON locked.wallet_id = r.wallet_id AND locked.version = r.version;
      IF v_unchanged <> cardinality(p_wallet_ids) THEN
        RAISE EXCEPTION 'a wallet changed after it was read' USING ERRCODE = 'serialization_failure';
      END IF;

      FOR v_append IN SELECT * FROM jsonb_array_elements(p_appends) LOOP
        v_appended := false;
        FOR v_event IN
          SELECT a.event_position AS position, a.event_version AS version, a.event_transaction_id AS transaction_id
          FROM append_events(
            v_append->>'stream_id', (v_append->>'head_version')::bigint, v_append->>'head_hash',
            ARRAY(SELECT jsonb_array_elements_text(v_append->'types')),
            ARRAY(SELECT jsonb_array_elements_text(v_append->'data')),
            v_append->'metadata', (v_append->>'created_at')::timestamptz,
            ARRAY(SELECT jsonb_array_elements_text(v_append->'hashes'))
          ) a
          ORDER BY a.event_version
        LOOP
          v_appended := true;
          PERFORM project_ledger_event(v_event.position, v_append->'projections'->(v_event.version - (v_append->>'head_version')::bigint - 1)::integer);
          stream_id := v_append->>'stream_id';
          event_position := v_event.position;
          event_version := v_event.version;
          event_transaction_id := v_event.transaction_id;
          RETURN NEXT;
        END LOOP;
        -- The stream had moved on (a retry of a transaction that exists).
        -- Alone, the append returns nothing and wrote nothing; in a batch,
        -- the others must not commit without it: refuse the whole batch.
        IF NOT v_appended THEN
          IF jsonb_array_length(p_appends) = 1 THEN
            RETURN;
          END IF;
          RAISE EXCEPTION 'transaction stream % exists already', v_append->>'stream_id' USING ERRCODE = 'PK001';
        END IF;
      END LOOP;
    END
    $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION ledger_commit(text[], bigint[], jsonb);
    DROP FUNCTION project_ledger_event(bigint, jsonb);
    DROP FUNCTION ledger_state(text[], boolean, text[], numeric[]);
    DROP INDEX coins_in_wallet;
    CREATE INDEX coins_spendable ON coins (holder, value DESC, serial COLLATE "C") WHERE status = 'held';
    CREATE INDEX coins_in_wallet ON coins (holder, serial) WHERE status IN ('held', 'reserved');
    ALTER TABLE wallets RESET (fillfactor);
    ALTER TABLE wallets DROP COLUMN version;
  `.execute(db);
}
