import type { HistoryCounterparty } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import type { DatabaseNotifications } from '../../plugins/database-notifications.ts';
import { NotifiedCache } from '../../plugins/notified-cache.ts';
import { merchantParty, merchantPayee, personPayee, userParty, type Payee } from '../payments/index.ts';

/** A payee, with the name its payer's answer shows for it (the merchant's when paid as one). */
export interface NamedPayee {
  payee: Payee;
  party: HistoryCounterparty;
}

/**
 * The payee for a user's global id, or null when there is none to pay (no
 * such user, or a disabled or banned one: the Transfer fund page shows 'User
 * not found' for either). A user who belongs to a merchant (a business
 * sign-up, or a scanned merchant QR code) is paid as that merchant: the
 * money lands in the merchant's wallets as a purchase, where settlement and
 * the merchant's reports look for it, not in the person's own. A user in
 * several merchants is paid as the first one they joined.
 */
export async function findPayee(db: Kysely<Database>, guserId: string): Promise<NamedPayee | null> {
  const { rows } = await sql<{
    user_id: number;
    username: string;
    fullname: string | null;
    name_first: string | null;
    name_last: string | null;
    merchant_id: number | null;
    merchant_name: string | null;
  }>`
    SELECT u.user_id, u.username, u.fullname, u.name_first, u.name_last,
           first.merchant_id, first.name AS merchant_name
    FROM users u
    LEFT JOIN LATERAL (
      SELECT mu.merchant_id, m.name FROM merchant_users mu JOIN merchants m ON m.merchant_id = mu.merchant_id
      WHERE mu.user_id = u.user_id ORDER BY mu.created_at, mu.merchant_id LIMIT 1
    ) first ON true
    WHERE u.guser_id = ${guserId} AND u.account_status = 'active' AND NOT u.is_banned
  `.execute(db);
  const found = rows[0];
  if (!found) return null;
  return found.merchant_id === null
    ? { payee: personPayee(found.user_id), party: userParty(found) }
    : { payee: merchantPayee(found.user_id, found.merchant_id), party: merchantParty(found.merchant_name ?? '') };
}

/** The channel migration 0071's triggers announce a change to a payee on, with the user's global id (0440: names too). */
const PAYEE_CHANGES_CHANNEL = 'payee_changes';

/**
 * findPayee, with the payees found kept in memory until the database
 * announces a change to them (a user disabled, banned or renamed, joining or
 * leaving a merchant, a merchant renamed): every send-fund names one, mostly
 * the same few.
 */
export async function cachedPayees(
  db: Kysely<Database>,
  notifications: DatabaseNotifications,
): Promise<(guserId: string) => Promise<NamedPayee | null>> {
  const cache = new NotifiedCache<NamedPayee>({ channel: PAYEE_CHANGES_CHANNEL, maxEntries: 50_000, maxAgeMs: 60_000 });
  await cache.follow(notifications);
  // Postgres prints a uuid in lower case, as the notifications carry it.
  return (guserId) => cache.read(guserId.toLowerCase(), () => findPayee(db, guserId));
}

/** Whether `guserId` is the global id of user `userId`. */
export async function isGlobalIdOf(db: Kysely<Database>, userId: number, guserId: string): Promise<boolean> {
  const found = await db
    .selectFrom('users')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('guser_id', '=', guserId)
    .executeTakeFirst();
  return found !== undefined;
}
