import { sql, type Kysely } from 'kysely';

/**
 * Webhooks of personal users, and rotating a webhook's signing secret (issue 24).
 *
 * - A personal user's webhook has no merchant (`merchant_id` null) and hears
 *   about the user's own wallets; a merchant's keeps hearing about the
 *   merchant's. The fan-out looks personal webhooks up by user, hence the
 *   partial index.
 * - Rotating keeps the old secret for a day (`previous_secret_until`), and
 *   deliveries meanwhile carry both signatures, as Standard Webhooks allows,
 *   so a receiver can switch keys without dropping a message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhooks
      ALTER COLUMN merchant_id DROP NOT NULL,
      ADD COLUMN previous_secret text CHECK (previous_secret LIKE 'whsec\\_%'),
      ADD COLUMN previous_secret_until timestamptz,
      ADD CONSTRAINT webhooks_previous_secret_pair
        CHECK ((previous_secret IS NULL) = (previous_secret_until IS NULL));
    CREATE INDEX webhooks_personal ON webhooks (user_id) WHERE merchant_id IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX webhooks_personal;
    DELETE FROM webhooks WHERE merchant_id IS NULL;
    ALTER TABLE webhooks
      DROP CONSTRAINT webhooks_previous_secret_pair,
      DROP COLUMN previous_secret_until,
      DROP COLUMN previous_secret,
      ALTER COLUMN merchant_id SET NOT NULL;
  `.execute(db);
}
