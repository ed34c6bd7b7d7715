import { sql, type Kysely } from 'kysely';

/**
 * `transaction_funding` goes: what a card, a bank or a deposit paid or was
 * paid is in the transaction's own event (a purchase's `charge`, a
 * card-paid payment's `fundedBy`, a deposit's `payment`, a withdrawal's
 * `payout`, with the `quoteId`), which the history already reads. Two
 * records of one fact could disagree; the event is the one the ledger
 * verifies. A quote's use stays in `quotes.tx_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE transaction_funding`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE transaction_funding (
      tx_id text PRIMARY KEY,
      quote_id text REFERENCES quotes (quote_id),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      label text NOT NULL,
      recorded_at timestamptz NOT NULL
    )
  `.execute(db);
}
