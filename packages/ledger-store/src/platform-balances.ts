import type { AsyncProjection } from '@peeks/db';
import { isPlatformAccount, type Posting } from '@peeks/ledger';
import { sql } from 'kysely';

/**
 * Balances of the platform's own accounts, summed from postings after the
 * fact. Every purchase and deposit posts to a funding account, so keeping
 * these inline would make each a hot row that all payments queue on.
 */
export const platformBalances: AsyncProjection = {
  name: 'platform_balances',
  async apply(trx, events) {
    const sums = new Map<string, { currency: string; balance: number; entries: number }>();
    for (const event of events) {
      const postings = (event.data as { postings?: Posting[] }).postings ?? [];
      for (const posting of postings) {
        if (!isPlatformAccount(posting.account)) continue;
        const sum = sums.get(posting.account) ?? { currency: posting.currency, balance: 0, entries: 0 };
        sum.balance += posting.amount;
        sum.entries += 1;
        sums.set(posting.account, sum);
      }
    }
    if (sums.size === 0) return;
    const rows = [...sums].map(([account, sum]) => ({ account_id: account, ...sum }));
    await sql`
      INSERT INTO platform_balances AS current SELECT * FROM json_populate_recordset(NULL::platform_balances, ${JSON.stringify(rows)}::json)
      ON CONFLICT (account_id) DO UPDATE SET balance = current.balance + excluded.balance, entries = current.entries + excluded.entries
    `.execute(trx);
  },
};
