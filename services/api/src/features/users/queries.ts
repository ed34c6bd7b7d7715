import { USER_LIST_LIMIT, type Recipient } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

/** A LIKE pattern matching text that starts with `prefix`, taken literally ('_' is common in usernames). */
export const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * Recipients for a search, other than the searcher and accounts that cannot
 * receive (banned or disabled). With an '@' it is one exact e-mail address;
 * otherwise the start of a username. E-mails are never matched by prefix, so
 * a search cannot spell out someone's address letter by letter.
 */
export async function findRecipients(db: Kysely<Database>, searcherId: number, search: string): Promise<Recipient[]> {
  const byEmail = search.includes('@');
  const needle = search.toLowerCase();
  const rows = await recipients(db, searcherId)
    .where((eb) =>
      byEmail
        ? eb(eb.fn('lower', ['email']), '=', needle)
        : eb(eb.fn('lower', ['username']), 'like', startsWith(needle)),
    )
    .orderBy((eb) => eb.fn('lower', ['username']))
    .limit(USER_LIST_LIMIT)
    .execute();
  // The e-mail goes back only as the searcher typed it: they knew it already.
  return rows.map((row) => ({ ...row, ...(byEmail ? { email: search } : {}) }));
}

/** The recipient with global id `guserId`, unless it is the searcher or cannot receive; what the Transfer fund page shows. */
export async function findRecipient(
  db: Kysely<Database>,
  searcherId: number,
  guserId: string,
): Promise<Recipient | undefined> {
  // The shop as send-fund pays it (send-fund/payee.ts): the first merchant the user joined.
  return recipients(db, searcherId)
    .select((eb) =>
      eb
        .selectFrom('merchant_users as mu')
        .innerJoin('merchants as m', 'm.merchant_id', 'mu.merchant_id')
        .select('m.name')
        .whereRef('mu.user_id', '=', 'users.user_id')
        .orderBy('mu.created_at')
        .orderBy('mu.merchant_id')
        .limit(1)
        .as('shop_name'),
    )
    .where('guser_id', '=', guserId)
    .executeTakeFirst();
}

/** Users who can be paid by `searcherId`, with the public fields a recipient card shows. */
function recipients(db: Kysely<Database>, searcherId: number) {
  return db
    .selectFrom('users')
    .select(['user_id', 'guser_id', 'username', 'fullname', 'avatar', 'city', 'country'])
    .where('user_id', '!=', searcherId)
    .where('is_banned', '=', false)
    .where('account_status', '=', 'active');
}
