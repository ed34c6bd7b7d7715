import type { Database } from '@peeks/db';
import {
  merchantOwnerId,
  userOwnerId,
  type CardFunding,
  type Currency,
  type LedgerCommand,
  type TransferKind,
} from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';
import type { DatabaseNotifications } from '../../plugins/database-notifications.ts';
import { NotifiedCache } from '../../plugins/notified-cache.ts';

/** Who a payment reaches: the wallet owner it lands with, and the kind of transfer that makes it. */
export interface Payee {
  /** The user the payer named. */
  userId: number;
  ownerId: string;
  kind: Extract<TransferKind, 'P2P' | 'PURCHASE'>;
}

/** The payee an owner id and kind describe: a merchant's wallets take purchases, a person's take P2P. */
export const merchantPayee = (userId: number, merchantId: number): Payee => ({
  userId,
  ownerId: merchantOwnerId(merchantId),
  kind: 'PURCHASE',
});
const personPayee = (userId: number): Payee => ({ userId, ownerId: userOwnerId(userId), kind: 'P2P' });

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

/**
 * A payment to a payee: the ledger's Transfer, with the fee (0 today)
 * carried as a field. It comes from the payer's wallet balance, or, with
 * `fundedBy`, from a card charged for it (see card-payments/charge.ts, which
 * charges the card before this command runs).
 */
export function payeePayment(payment: {
  txId: string;
  payerOwnerId: string;
  payee: Payee;
  amount: number;
  currency: Currency;
  memo: string | null;
  fundedBy?: CardFunding;
}): LedgerCommand {
  return {
    type: 'Transfer',
    txId: payment.txId,
    kind: payment.payee.kind,
    fromOwnerId: payment.payerOwnerId,
    toOwnerId: payment.payee.ownerId,
    amount: payment.amount,
    fee: 0,
    currency: payment.currency,
    memo: payment.memo,
    ...(payment.fundedBy ? { fundedBy: payment.fundedBy } : {}),
  };
}
