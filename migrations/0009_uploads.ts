import { sql, type Kysely } from 'kysely';

/**
 * Uploaded images: a user's avatar and identity documents.
 *
 * - The bytes live in Postgres (bytea) rather than in files under the data
 *   directory: they are backed up and restored with the rest of the user's
 *   data, a row and its bytes are written in one transaction (no orphan files
 *   after a failed request), and a second API process sees them with no shared
 *   disk. The sizes are small (2 MB avatars, 5 MB documents) and bounded here
 *   too, so bytea's costs stay modest.
 * - Only images that were checked by content and re-encoded by the API get
 *   here; `content_type` is the one the API serves them back with.
 * - One avatar per user: a new upload replaces the old one. `sha256` names the
 *   version in the avatar's URL, so a browser may cache each URL for good.
 * - Documents are never served publicly; every query is scoped by user_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_avatars (
      user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
      content bytea NOT NULL CHECK (octet_length(content) BETWEEN 1 AND 2097152),
      content_type text NOT NULL CHECK (content_type = 'image/jpeg'),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      uploaded_at timestamptz NOT NULL
    );

    CREATE TABLE user_documents (
      document_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
      merchant_id bigint REFERENCES merchants,
      document_type text NOT NULL CHECK (document_type IN ('driver', 'passport', 'citizenship', 'identity')),
      document_number text NOT NULL CHECK (length(document_number) BETWEEN 2 AND 64),
      issuing_country text NOT NULL CHECK (issuing_country ~ '^[A-Z]{2}$'),
      issue_date date NOT NULL,
      expiry_date date NOT NULL CHECK (expiry_date > issue_date),
      content bytea NOT NULL CHECK (octet_length(content) BETWEEN 1 AND 5242880),
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      uploaded_at timestamptz NOT NULL
    );
    CREATE INDEX user_documents_user ON user_documents (user_id, document_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE user_documents, user_avatars`.execute(db);
}
