import { sql, type Kysely } from 'kysely';

/**
 * Identity: users, merchants and who belongs to which, server-side sessions,
 * and the counters behind the rate limits.
 *
 * - Usernames and e-mails are unique whatever their letter case; a username
 *   cannot contain '@', so one login field can take either without ambiguity.
 * - `password_hash` is a PHC string that carries its own algorithm and
 *   parameters, so they can be raised later and old hashes still verify.
 * - A session row is keyed by the SHA-256 of the cookie value, never the value
 *   itself: a leaked table or backup signs nobody in.
 * - Rate-limit counters live here so a limit holds across every API process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      user_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      guser_id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
      username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_]{6,64}$'),
      email text NOT NULL CHECK (length(email) BETWEEN 3 AND 64 AND position('@' IN email) > 1),
      password_hash text NOT NULL,
      user_type text NOT NULL CHECK (user_type IN ('personal', 'business')),
      role text NOT NULL DEFAULT 'user',
      account_status text NOT NULL DEFAULT 'active' CHECK (account_status IN ('active', 'disabled')),
      is_banned boolean NOT NULL DEFAULT false,
      perms text[] NOT NULL,
      birthday date NOT NULL,
      country char(2) NOT NULL,
      currency text NOT NULL,
      terms_accepted boolean NOT NULL,
      fullname text,
      avatar text,
      gender text,
      phone text,
      city text,
      province text,
      description text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX users_username_key ON users (lower(username));
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));

    CREATE TABLE merchants (
      merchant_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      dba text NOT NULL,
      website text NOT NULL,
      phone text NOT NULL,
      phone_region text NOT NULL,
      category_id bigint NOT NULL,
      sub_category_id bigint NOT NULL,
      business_type text NOT NULL,
      date_established date NOT NULL,
      monthly_sales bigint NOT NULL CHECK (monthly_sales >= 0),
      business_number text NOT NULL,
      business_country char(2) NOT NULL,
      address_email text NOT NULL,
      address_phone text NOT NULL,
      address_name_first text NOT NULL,
      address_name_last text NOT NULL,
      address1 text NOT NULL,
      address2 text,
      city text NOT NULL,
      province_state text NOT NULL,
      postal_code text NOT NULL,
      country char(2) NOT NULL,
      support_url text NOT NULL,
      support_phone text NOT NULL,
      support_phone_region text NOT NULL,
      support_email text NOT NULL,
      contact_name text NOT NULL,
      contact_email text NOT NULL,
      contact_phone text NOT NULL,
      contact_phone_region text NOT NULL,
      owner_citizenship text NOT NULL,
      owner_dob date NOT NULL,
      owner_name text NOT NULL,
      owner_phone text NOT NULL,
      owner_phone_region text NOT NULL,
      owner_email text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );

    CREATE TABLE merchant_users (
      merchant_id bigint NOT NULL REFERENCES merchants,
      user_id bigint NOT NULL REFERENCES users,
      perms text[] NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, merchant_id)
    );
    CREATE INDEX merchant_users_merchant ON merchant_users (merchant_id);

    CREATE TABLE sessions (
      session_key bytea PRIMARY KEY CHECK (length(session_key) = 32),
      user_id bigint REFERENCES users ON DELETE CASCADE,
      merchant_id bigint,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      -- A session acts only for a merchant its user belongs to.
      FOREIGN KEY (user_id, merchant_id) REFERENCES merchant_users (user_id, merchant_id)
    );
    CREATE INDEX sessions_expires_at ON sessions (expires_at);
    CREATE INDEX sessions_user ON sessions (user_id) WHERE user_id IS NOT NULL;

    CREATE TABLE rate_limit_hits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      window_ends_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limit_hits, sessions, merchant_users, merchants, users`.execute(db);
}
