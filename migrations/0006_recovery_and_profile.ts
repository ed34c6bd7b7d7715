import { sql, type Kysely } from 'kysely';

/**
 * Password recovery, the e-mail outbox, and the profile's details and preferences.
 *
 * - A recovery code is kept only as a salted HMAC-SHA256; the code itself goes
 *   to the user by e-mail and nowhere else. It lives 15 minutes, allows 5 tries,
 *   and is spent by one reset (`used_at`). `checked_at` records step 3 of the
 *   form, which step 4 (the reset) requires.
 * - E-mail is an outbox: the request writes a row, a worker delivers it later
 *   (platform §6) and fills `sent_at`; `attempts` counts its tries.
 * - The User profile (spec §3) has first and last name, a prefix and a phone
 *   dialling code that registration did not collect.
 * - Preferences are stored only where the user changed a default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE password_recovery_codes (
      recovery_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      code_salt bytea NOT NULL CHECK (length(code_salt) = 16),
      code_hash bytea NOT NULL CHECK (length(code_hash) = 32),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      checked_at timestamptz,
      used_at timestamptz
    );
    CREATE INDEX password_recovery_codes_user ON password_recovery_codes (user_id, created_at DESC);

    CREATE TABLE email_outbox (
      email_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      recipient text NOT NULL,
      template text NOT NULL,
      subject text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0)
    );
    CREATE INDEX email_outbox_unsent ON email_outbox (created_at) WHERE sent_at IS NULL;

    ALTER TABLE users
      ADD COLUMN name_first text,
      ADD COLUMN name_last text,
      ADD COLUMN prefix text,
      ADD COLUMN phone_region text;

    CREATE TABLE user_preferences (
      user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      section text NOT NULL CHECK (section IN ('notifications', 'notify-methods')),
      key text NOT NULL,
      enabled boolean NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, section, key)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE user_preferences, email_outbox, password_recovery_codes;
    ALTER TABLE users DROP COLUMN name_first, DROP COLUMN name_last, DROP COLUMN prefix, DROP COLUMN phone_region;
  `.execute(db);
}
