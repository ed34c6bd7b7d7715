import {
  cartLine,
  type CartLine,
  type CheckoutSession,
  type CreateCheckoutRequest,
  type TransactionView,
} from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Currency } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** A checkout session as stored, with its merchant's name and, once paid, who paid it. */
export interface StoredCheckout {
  view: CheckoutSession;
  /** The ledger transaction that pays it: fixed at creation, so the ledger pays it once. */
  txId: string;
  createdBy: number;
  currency: Currency;
  payerOwnerId: string | null;
  tokenHash: Buffer;
}

/** A new session of `merchantId`'s; the token is returned this once and kept only as its hash. */
export async function createCheckout(
  db: Kysely<Database>,
  owner: { merchantId: number; userId: number },
  request: CreateCheckoutRequest,
  now: Date,
): Promise<{ id: number; token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + request.expires_in * 1000);
  const row = await db
    .insertInto('checkout_sessions')
    .values({
      merchant_id: owner.merchantId,
      created_by: owner.userId,
      token_hash: hashOf(token),
      tx_id: `checkout_${randomBytes(16).toString('hex')}`,
      cart: JSON.stringify(request.cart),
      total: request.total,
      currency: request.currency,
      success_url: request.success_url,
      created_at: now,
      expires_at: expiresAt,
    })
    .returning('checkout_id')
    .executeTakeFirstOrThrow();
  return { id: row.checkout_id, token, expiresAt };
}

/**
 * Session `id`, if there is one (and, with `merchantId`, only that
 * merchant's). Paid means the ledger has its transaction; expired means
 * unpaid past its expiry, as `now` sees it.
 */
export async function findCheckout(
  db: Kysely<Database>,
  id: number,
  now: Date,
  merchantId?: number,
): Promise<StoredCheckout | null> {
  let query = db
    .selectFrom('checkout_sessions as c')
    .innerJoin('merchants as m', 'm.merchant_id', 'c.merchant_id')
    .leftJoin('ledger_transactions as t', 't.tx_id', 'c.tx_id')
    .select([
      'c.checkout_id',
      'c.merchant_id',
      'c.created_by',
      'c.token_hash',
      'c.tx_id',
      'c.cart',
      'c.total',
      'c.currency',
      'c.success_url',
      'c.expires_at',
      'm.name',
      't.payer_owner_id',
      't.tx_id as paid_tx_id',
    ])
    .where('c.checkout_id', '=', id);
  if (merchantId !== undefined) query = query.where('c.merchant_id', '=', merchantId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const paid = row.paid_tx_id !== null;
  const currency = row.currency as Currency;
  return {
    view: {
      id: row.checkout_id,
      merchant_id: row.merchant_id,
      merchant_name: row.name,
      cart: z.array(cartLine).parse(row.cart),
      total: row.total,
      currency,
      state: paid ? 'paid' : now >= row.expires_at ? 'expired' : 'open',
      expires_at: row.expires_at.toISOString(),
      success_url: row.success_url,
      tx_id: paid ? row.tx_id : null,
    },
    txId: row.tx_id,
    createdBy: row.created_by,
    currency,
    payerOwnerId: row.payer_owner_id,
    tokenHash: row.token_hash,
  };
}

/** Session `id` if `token` is its token; null otherwise, alike for a wrong token and no session. */
export async function findCheckoutByToken(
  db: Kysely<Database>,
  id: number,
  token: string,
  now: Date,
): Promise<StoredCheckout | null> {
  const found = await findCheckout(db, id, now);
  return found && timingSafeEqual(found.tokenHash, hashOf(token)) ? found : null;
}

/** The transaction a payer sees for a session it paid, with the session's cart on it. */
export const withCart = (transaction: TransactionView, checkout: StoredCheckout): TransactionView => ({
  ...transaction,
  cart: checkout.view.cart,
});

/** The cart of the checkout session a transaction paid; empty for a transaction that paid none. */
export async function cartPaidBy(db: Kysely<Database>, txId: string): Promise<CartLine[]> {
  const row = await db.selectFrom('checkout_sessions').select('cart').where('tx_id', '=', txId).executeTakeFirst();
  return row ? z.array(cartLine).parse(row.cart) : [];
}
