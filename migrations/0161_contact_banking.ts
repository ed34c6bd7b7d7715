import { sql, type Kysely } from 'kysely';

/**
 * The Add A Recipient page (spec §2, §5 "Banking"): a contact may carry the
 * recipient's bank name, institution number and account number. The three
 * come together or not at all; contacts saved from the Contacts page have
 * none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE contacts
      ADD COLUMN bank_name text,
      ADD COLUMN institution_no text,
      ADD COLUMN account_no text,
      ADD CONSTRAINT contacts_banking_whole CHECK (
        (bank_name IS NULL) = (institution_no IS NULL) AND (bank_name IS NULL) = (account_no IS NULL)
      )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE contacts
      DROP CONSTRAINT contacts_banking_whole,
      DROP COLUMN account_no,
      DROP COLUMN institution_no,
      DROP COLUMN bank_name
  `.execute(db);
}
