import { sql, type Kysely } from 'kysely';

/**
 * Announces the changes that make an API process's cached sessions and
 * payees wrong (issue 5's benchmark: reading both at every send-fund cost
 * two round trips a request). As with ledger_activity (migration 0010), the
 * NOTIFY is part of the writing transaction, so it is delivered only once
 * that commits.
 *
 * - `session_changes`, the session key in hex: a session ended (sign-out,
 *   password change, expiry) or moved to another user, merchant or CSRF
 *   token. Pushing the idle deadline forward, which every process does once
 *   a minute per session, announces nothing: a cache with an older deadline
 *   only asks the database sooner.
 * - `payee_changes`, the user's global id: a user disabled, banned,
 *   re-enabled or renamed, or joining or leaving a merchant (which decides
 *   whose wallet a payment to them reaches).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('session_changes', encode(OLD.session_key, 'hex'));
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER session_changes AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION notify_session_change();
    CREATE TRIGGER session_owner_changes AFTER UPDATE ON sessions
    FOR EACH ROW WHEN (
      OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id
      OR OLD.csrf_token IS DISTINCT FROM NEW.csrf_token OR NEW.expires_at < OLD.expires_at
    )
    EXECUTE FUNCTION notify_session_change();

    CREATE FUNCTION notify_payee_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('payee_changes', OLD.guser_id::text);
      ELSE
        PERFORM pg_notify('payee_changes', u.guser_id::text) FROM users u WHERE u.user_id IN (OLD.user_id, NEW.user_id);
      END IF;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER payee_changes AFTER UPDATE ON users
    FOR EACH ROW WHEN (
      OLD.account_status IS DISTINCT FROM NEW.account_status OR OLD.is_banned IS DISTINCT FROM NEW.is_banned
      OR OLD.guser_id IS DISTINCT FROM NEW.guser_id
    )
    EXECUTE FUNCTION notify_payee_change();
    CREATE TRIGGER payee_gone AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_payee_change();
    CREATE TRIGGER payee_merchants AFTER INSERT OR UPDATE OR DELETE ON merchant_users
    FOR EACH ROW EXECUTE FUNCTION notify_payee_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER payee_merchants ON merchant_users;
    DROP TRIGGER payee_gone ON users;
    DROP TRIGGER payee_changes ON users;
    DROP FUNCTION notify_payee_change();
    DROP TRIGGER session_owner_changes ON sessions;
    DROP TRIGGER session_changes ON sessions;
    DROP FUNCTION notify_session_change();
  `.execute(db);
}
