import type { Database } from '@peeks/db';
import type { RateMicros } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import { rateOf, type CashCurrency, type ExchangeRates } from './price-list.ts';

/**
 * Where exchange rates come from. In development they are configuration
 * (CAD_USD_RATE); in production a rate provider implements the same call.
 */
export interface ExchangeRateSource {
  /** Recorded beside each rate in its history. */
  readonly name: string;
  /** The rates now, in millionths of a US dollar per unit. */
  current(): Promise<ExchangeRates>;
}

export function configuredRates(cadUsdMicros: RateMicros): ExchangeRateSource {
  if (!Number.isSafeInteger(cadUsdMicros) || cadUsdMicros <= 0)
    throw new RangeError(`rate ${cadUsdMicros} is not a positive number of millionths`);
  return { name: 'configuration', current: () => Promise.resolve({ CAD: cadUsdMicros }) };
}

/** A rate in force and the history row that explains it (null for the US dollar, the reference). */
interface RateInForce {
  rateMicros: RateMicros;
  rateId: number | null;
}

/**
 * The rate `currency` converts at now, written to the rate history the
 * first time it is used and whenever it changes, so every quote names the
 * row it was priced from. Two requests seeing a new rate at once may both
 * write it; the history then has the same rate twice, which explains the
 * same conversions.
 */
export async function rateInForce(
  db: Kysely<Database>,
  source: ExchangeRateSource,
  currency: CashCurrency,
  now: Date,
): Promise<RateInForce> {
  const rateMicros = rateOf(currency, await source.current());
  if (currency === 'USD') return { rateMicros, rateId: null };
  const latest = await db
    .selectFrom('exchange_rates')
    .select(['rate_id', 'rate_micros', 'source'])
    .where('currency', '=', currency)
    .orderBy('valid_from', 'desc')
    .orderBy('rate_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest?.rate_micros === rateMicros && latest.source === source.name)
    return { rateMicros, rateId: latest.rate_id };
  const row = await db
    .insertInto('exchange_rates')
    .values({ currency, reference_currency: 'USD', rate_micros: rateMicros, source: source.name, valid_from: now })
    .returning('rate_id')
    .executeTakeFirstOrThrow();
  return { rateMicros, rateId: row.rate_id };
}
