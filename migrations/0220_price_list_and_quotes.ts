import { sql, type Kysely } from 'kysely';

/**
 * Issue 35, one price list and a quote before every conversion.
 *
 * `exchange_rates` keeps every rate the price list has used, from when it
 * was valid, so any past conversion can be explained: coins are priced in
 * US dollars (20 a dollar) and another currency at its rate to the dollar.
 *
 * `quotes` holds the terms shown to a person before they convert money,
 * bound to them and to the one transaction that may use them (`tx_id`, set
 * when a command claims the quote). `rate_micros` is the rate to US dollars
 * the quote was made at (the ledger's rate); `coin_micros_per_unit` the
 * coins one unit of the cash side buys, in millionths (20 × rate).
 *
 * `transaction_funding` records what a card or bank paid or was paid for a
 * transaction ("Visa •••• 4242", the amount charged) and the quote it used,
 * for the history to show beside the ledger's own rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE exchange_rates (
      rate_id bigserial PRIMARY KEY,
      currency text NOT NULL CHECK (currency IN ('USD', 'CAD')),
      reference_currency text NOT NULL CHECK (reference_currency = 'USD'),
      rate_micros bigint NOT NULL CHECK (rate_micros > 0),
      source text NOT NULL,
      valid_from timestamptz NOT NULL
    );
    CREATE INDEX exchange_rates_latest ON exchange_rates (currency, valid_from DESC, rate_id DESC);

    CREATE TABLE quotes (
      quote_id text PRIMARY KEY,
      owner_id text NOT NULL,
      user_id integer NOT NULL REFERENCES users (user_id),
      from_currency text NOT NULL,
      to_currency text NOT NULL,
      amount_in bigint NOT NULL CHECK (amount_in > 0),
      amount_out bigint NOT NULL CHECK (amount_out > 0),
      fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0),
      rate_micros bigint NOT NULL CHECK (rate_micros > 0),
      coin_micros_per_unit bigint NOT NULL CHECK (coin_micros_per_unit > 0),
      rate_id bigint REFERENCES exchange_rates (rate_id),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      tx_id text UNIQUE,
      CONSTRAINT quotes_convert CHECK ((from_currency = 'CON') <> (to_currency = 'CON'))
    );
    CREATE INDEX quotes_expiry ON quotes (expires_at) WHERE tx_id IS NULL;

    CREATE TABLE transaction_funding (
      tx_id text PRIMARY KEY,
      quote_id text REFERENCES quotes (quote_id),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      label text NOT NULL,
      recorded_at timestamptz NOT NULL
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE transaction_funding; DROP TABLE quotes; DROP TABLE exchange_rates;`.execute(db);
}
