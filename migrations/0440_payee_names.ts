import { sql, type Kysely } from 'kysely';

/**
 * `payee_changes` (migration 0071) also announces a payee's new name: a
 * user's username, full name or first and last names, and a merchant's
 * name (for each of its users, whose global id pays it). An API process
 * keeps the name with the payee it caches, so a send-fund's answer names
 * its recipient without reading them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER payee_changes ON users;
    CREATE TRIGGER payee_changes AFTER UPDATE ON users
    FOR EACH ROW WHEN (
      OLD.account_status IS DISTINCT FROM NEW.account_status OR OLD.is_banned IS DISTINCT FROM NEW.is_banned
      OR OLD.guser_id IS DISTINCT FROM NEW.guser_id
      OR OLD.username IS DISTINCT FROM NEW.username OR OLD.fullname IS DISTINCT FROM NEW.fullname
      OR OLD.name_first IS DISTINCT FROM NEW.name_first OR OLD.name_last IS DISTINCT FROM NEW.name_last
    )
    EXECUTE FUNCTION notify_payee_change();

    CREATE FUNCTION notify_merchant_payee_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('payee_changes', u.guser_id::text)
      FROM merchant_users mu JOIN users u ON u.user_id = mu.user_id
      WHERE mu.merchant_id = OLD.merchant_id;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER payee_merchant_names AFTER UPDATE ON merchants
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION notify_merchant_payee_change();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER payee_merchant_names ON merchants;
    DROP FUNCTION notify_merchant_payee_change();
    DROP TRIGGER payee_changes ON users;
    CREATE TRIGGER payee_changes AFTER UPDATE ON users
    FOR EACH ROW WHEN (
      OLD.account_status IS DISTINCT FROM NEW.account_status OR OLD.is_banned IS DISTINCT FROM NEW.is_banned
      OR OLD.guser_id IS DISTINCT FROM NEW.guser_id
    )
    EXECUTE FUNCTION notify_payee_change();
  `.execute(db);
}
