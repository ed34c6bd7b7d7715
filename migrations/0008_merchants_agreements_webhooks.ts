import { sql, type Kysely } from 'kysely';

/**
 * Merchant settings: categories, terminals, agreements and webhooks.
 *
 * - Categories: the spec gives no list, so this seeds a small one. Ids are
 *   fixed so a form, a fixture and a merchant row name the same ones
 *   (sub category 12 is in category 3, as the registration fixture has it).
 * - An agreement is one version of a named text; a new version is a new row,
 *   so an acceptance always names the exact text that was accepted.
 * - A user agreement is accepted by each user; a merchant agreement once per
 *   merchant, recording which user accepted it and when.
 * - A webhook's signing secret must be read back to sign deliveries, so it is
 *   kept as is (a hash would be useless); it is never returned after creation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE categories (
      category_id bigint PRIMARY KEY,
      name text NOT NULL UNIQUE
    );
    CREATE TABLE sub_categories (
      sub_category_id bigint PRIMARY KEY,
      category_id bigint NOT NULL REFERENCES categories,
      name text NOT NULL,
      UNIQUE (category_id, name)
    );
    INSERT INTO categories (category_id, name) VALUES
      (1, 'Retail'), (2, 'Professional Services'), (3, 'Food and Beverage'), (4, 'Digital Goods'), (5, 'Travel and Hospitality');
    INSERT INTO sub_categories (sub_category_id, category_id, name) VALUES
      (1, 1, 'Clothing'), (2, 1, 'Electronics'), (3, 1, 'Home and Garden'), (4, 1, 'General Merchandise'),
      (5, 2, 'Consulting'), (6, 2, 'Legal'), (7, 2, 'Accounting'), (8, 2, 'Education'),
      (9, 3, 'Restaurant'), (10, 3, 'Grocery'), (11, 3, 'Bakery'), (12, 3, 'Coffee Shop'),
      (13, 4, 'Software'), (14, 4, 'Games'), (15, 4, 'Media and Streaming'), (16, 4, 'Online Courses'),
      (17, 5, 'Hotel'), (18, 5, 'Airline'), (19, 5, 'Car Rental'), (20, 5, 'Tour Operator');

    CREATE TABLE merchant_terminals (
      merchant_terminal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      merchant_id bigint NOT NULL REFERENCES merchants,
      terminal_id text NOT NULL CHECK (length(terminal_id) BETWEEN 2 AND 128),
      comment text NOT NULL CHECK (length(comment) BETWEEN 2 AND 512),
      registration_code integer NOT NULL CHECK (registration_code IN (101, 102)),
      entry_date timestamptz NOT NULL,
      CONSTRAINT merchant_terminals_terminal_key UNIQUE (merchant_id, terminal_id)
    );

    CREATE TABLE agreements (
      agreement_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      category text NOT NULL,
      audience text NOT NULL CHECK (audience IN ('user', 'merchant')),
      short_description text NOT NULL,
      effective_date timestamptz NOT NULL,
      expiry_date timestamptz CHECK (expiry_date > effective_date),
      agree_by timestamptz,
      UNIQUE (name, version)
    );

    CREATE TABLE agreement_acceptances (
      agreement_acceptance_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      agreement_id bigint NOT NULL REFERENCES agreements,
      -- Who accepted (or skipped), and for which merchant when it is a merchant agreement.
      user_id bigint NOT NULL REFERENCES users,
      merchant_id bigint REFERENCES merchants,
      agreed_at timestamptz,
      skipped_at timestamptz,
      CHECK (agreed_at IS NOT NULL OR skipped_at IS NOT NULL)
    );
    CREATE UNIQUE INDEX agreement_acceptances_user_key ON agreement_acceptances (agreement_id, user_id) WHERE merchant_id IS NULL;
    CREATE UNIQUE INDEX agreement_acceptances_merchant_key ON agreement_acceptances (agreement_id, merchant_id) WHERE merchant_id IS NOT NULL;

    INSERT INTO agreements (name, version, category, audience, short_description, effective_date, expiry_date, agree_by) VALUES
      ('Terms and Conditions', 1, 'General', 'user',
       '<p>By using Peeks Wallet you agree to keep your credentials private and to use the wallet only for lawful payments.</p>',
       '2024-01-01T00:00:00Z', NULL, '2099-12-31T00:00:00Z'),
      ('Merchant Services Agreement', 1, 'Merchant', 'merchant',
       '<p>The merchant accepts card, coin and transfer payments through Peeks Wallet and settles them on the published schedule.</p>',
       '2024-01-01T00:00:00Z', NULL, '2099-12-31T00:00:00Z');

    CREATE TABLE webhooks (
      webhook_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      merchant_id bigint NOT NULL REFERENCES merchants,
      user_id bigint NOT NULL REFERENCES users,
      state text NOT NULL DEFAULT 'enabled' CHECK (state IN ('enabled', 'disabled')),
      url text NOT NULL CHECK (length(url) BETWEEN 1 AND 250),
      events text[] NOT NULL CHECK (cardinality(events) >= 1),
      secret text NOT NULL CHECK (secret LIKE 'whsec\\_%'),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX webhooks_merchant ON webhooks (merchant_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhooks, agreement_acceptances, agreements, merchant_terminals, sub_categories, categories`.execute(db);
}
