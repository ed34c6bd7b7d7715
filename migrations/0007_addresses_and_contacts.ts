import { sql, type Kysely } from 'kysely';

/**
 * The signed-in user's own addresses and contacts, and an index for finding
 * recipients by username prefix.
 *
 * - Every row belongs to one user and goes with it (ON DELETE CASCADE); every
 *   query is scoped by that user id.
 * - At most one primary address per user, enforced by a partial unique index;
 *   "at least one" is kept by the code, which locks the user's row while it
 *   changes that user's addresses.
 * - A contact's e-mail is unique per owner whatever its letter case: a second
 *   one is the spec's 23201 'Sorry, This Contact Already Exist'.
 * - `users_username_prefix` uses text_pattern_ops so `lower(username) LIKE
 *   'abc%'` can use an index under any collation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE addresses (
      address_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      name_first text NOT NULL,
      name_last text NOT NULL,
      address1 text NOT NULL,
      address2 text,
      city text NOT NULL,
      province_state text NOT NULL,
      postal_code text NOT NULL,
      country char(2) NOT NULL,
      is_primary boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX addresses_user ON addresses (user_id, address_id);
    CREATE UNIQUE INDEX addresses_one_primary ON addresses (user_id) WHERE is_primary;

    CREATE TABLE contacts (
      contact_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      owner_user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      name_first text NOT NULL,
      name_last text NOT NULL,
      phone_region text NOT NULL,
      phone text NOT NULL CHECK (phone ~ '^[0-9]{10}$'),
      email text NOT NULL,
      address1 text NOT NULL,
      address2 text,
      city text NOT NULL,
      province text NOT NULL,
      country char(2) NOT NULL,
      postal text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX contacts_email_key ON contacts (owner_user_id, lower(email));

    CREATE INDEX users_username_prefix ON users (lower(username) text_pattern_ops);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX users_username_prefix;
    DROP TABLE contacts, addresses;
  `.execute(db);
}
