import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import type { DatabaseNotifications } from '../../plugins/database-notifications.ts';
import { NotifiedCache } from '../../plugins/notified-cache.ts';
import { merchantPayee, personPayee, type Payee } from '../payments/index.ts';

/**
 * The payee for a user's global id, or null when there is none to pay (no
 * such user, or a disabled or banned one: the Transfer fund page shows 'User
 * not found' for either). A user who belongs to a merchant (a business
 * sign-up, or a scanned merchant QR code) is paid as that merchant: the
 * money lands in the merchant's wallets as a purchase, where settlement and
 * the merchant's reports look for it, not in the person's own. A user in
 * several merchants is paid as the first one they joined.
 */
export async function findPayee(db: Kysely<Database>, guserId: string): Promise<Payee | null> {
  const { rows } = await sql<{ user_id: number; merchant_id: number | null }>`
    SELECT u.user_id,
           (SELECT mu.merchant_id FROM merchant_users mu WHERE mu.user_id = u.user_id ORDER BY mu.created_at, mu.merchant_id LIMIT 1) AS merchant_id
    FROM users u
    WHERE u.guser_id = ${guserId} AND u.account_status = 'active' AND NOT u.is_banned
  `.execute(db);
  const found = rows[0];
  if (!found) return null;
  return found.merchant_id === null ? personPayee(found.user_id) : merchantPayee(found.user_id, found.merchant_id);
}

/** The channel migration 0071's triggers announce a change to a payee on, with the user's global id. */
const PAYEE_CHANGES_CHANNEL = 'payee_changes';

/**
 * findPayee, with the payees found kept in memory until the database
 * announces a change to them (a user disabled or banned, joining or leaving
 * a merchant): every send-fund names one, mostly the same few.
 */
export async function cachedPayees(
  db: Kysely<Database>,
  notifications: DatabaseNotifications,
): Promise<(guserId: string) => Promise<Payee | null>> {
  const cache = new NotifiedCache<Payee>({ channel: PAYEE_CHANGES_CHANNEL, maxEntries: 50_000, maxAgeMs: 60_000 });
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
