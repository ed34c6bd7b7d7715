import type { OperationsOverview } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';

/** How many days the overview's daily charts cover. */
export const OVERVIEW_DAYS = 30;

const HOUR_MS = 3_600_000;

/**
 * The figures behind the console's overview charts, from the read models:
 * completed transactions per UTC day and type for the last 30 days,
 * deposits by method and state, holds releasing in the next 24 hours per
 * hour, and webhook deliveries per day by outcome. Days without any
 * activity are left out; the chart fills them in.
 */
export async function operationsOverview(
  db: Kysely<Database>,
  now: Date,
): Promise<Omit<OperationsOverview, 'response'>> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (OVERVIEW_DAYS - 1)));
  const day = (column: string) => sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const [volume, deposits, holds, deliveries] = await Promise.all([
    db
      .selectFrom('ledger_transactions')
      .select([
        day('entry_date').as('day'),
        'type',
        'currency',
        (eb) => eb.fn.countAll<number>().as('count'),
        sql<number>`sum(amount)::bigint`.as('amount'),
      ])
      .where('entry_date', '>=', since)
      .where('state', '=', 'completed')
      .groupBy([sql`1`, 'type', 'currency'])
      .orderBy(sql`1`)
      .orderBy('type')
      .orderBy('currency')
      .execute(),
    db
      .selectFrom('ledger_transactions')
      .select([
        sql<string>`coalesce(payment_method_type, 'card')`.as('method'),
        'state',
        (eb) => eb.fn.countAll<number>().as('count'),
      ])
      .where('type', '=', 'deposit')
      .groupBy([sql`1`, 'state'])
      .orderBy(sql`1`)
      .orderBy('state')
      .execute(),
    db
      .selectFrom('ledger_transactions')
      .select([
        // A hold overdue for release (its job not run yet) counts in the current hour.
        sql<Date>`date_trunc('hour', greatest(hold_release_at, ${now}::timestamptz))`.as('hour'),
        'currency',
        (eb) => eb.fn.countAll<number>().as('count'),
        sql<number>`sum(hold_amount)::bigint`.as('amount'),
      ])
      .where('hold_released_at', 'is', null)
      .where('hold_release_at', 'is not', null)
      .where('hold_release_at', '<', new Date(now.getTime() + 24 * HOUR_MS))
      .groupBy([sql`1`, 'currency'])
      .orderBy(sql`1`)
      .orderBy('currency')
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select([
        day('created_at').as('day'),
        sql<number>`count(*) FILTER (WHERE state = 'delivered')::int`.as('delivered'),
        sql<number>`count(*) FILTER (WHERE state = 'failed')::int`.as('failed'),
        sql<number>`count(*) FILTER (WHERE state = 'pending')::int`.as('pending'),
      ])
      .where('created_at', '>=', since)
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .execute(),
  ]);
  return {
    days: OVERVIEW_DAYS,
    daily_volume: volume,
    deposits_by_state: deposits,
    holds_releasing: holds.map((row) => ({ ...row, hour: row.hour.toISOString() })),
    webhook_deliveries: deliveries,
  };
}
