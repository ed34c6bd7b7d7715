import type { Database } from '@peeks/db';
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { DECLINED_CARD, brandOf, maskOf, newToken } from './cards.ts';

/** The sandbox processor's vault. Nothing outside this feature reads these tables. */
export async function storeCard(
  db: Kysely<Database>,
  card: { number: string; expiryMonth: number; expiryYear: number },
  now: Date,
) {
  const stored = { token: newToken(card.number), brand: brandOf(card.number), mask: maskOf(card.number) };
  await db
    .insertInto('sandbox_cards')
    .values({
      ...stored,
      card_number: card.number,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
      created_at: now,
    })
    .execute();
  return stored;
}

export function findCard(db: Kysely<Database>, token: string) {
  return db.selectFrom('sandbox_cards').selectAll().where('token', '=', token).executeTakeFirst();
}

export type ChargeResult =
  | {
      kind: 'charged';
      charge: { charge_id: string; status: 'approved' | 'declined'; amount: number; currency: string };
    }
  | { kind: 'unknown-card' }
  | { kind: 'key-reused' };

/**
 * Charges a card once per idempotency key: a retry, or a duplicate racing
 * the first, gets the first charge back; the same key for another card or
 * amount is refused.
 */
export async function chargeCard(
  db: Kysely<Database>,
  request: { token: string; amount: number; currency: string; idempotencyKey: string },
  now: Date,
): Promise<ChargeResult> {
  const card = await findCard(db, request.token);
  if (!card) return { kind: 'unknown-card' };
  await db
    .insertInto('sandbox_charges')
    .values({
      charge_id: `ch_${randomBytes(12).toString('hex')}`,
      idempotency_key: request.idempotencyKey,
      token: request.token,
      amount: request.amount,
      currency: request.currency,
      status: card.card_number === DECLINED_CARD ? 'declined' : 'approved',
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .execute();
  const charge = await db
    .selectFrom('sandbox_charges')
    .selectAll()
    .where('idempotency_key', '=', request.idempotencyKey)
    .executeTakeFirstOrThrow();
  if (charge.token !== request.token || charge.amount !== request.amount || charge.currency !== request.currency)
    return { kind: 'key-reused' };
  return {
    kind: 'charged',
    charge: { charge_id: charge.charge_id, status: charge.status, amount: charge.amount, currency: charge.currency },
  };
}

/**
 * Gives back the approved charge made under `idempotencyKey`; refunding it
 * again changes nothing. Null when there is no approved charge by that key.
 */
export async function refundCharge(db: Kysely<Database>, idempotencyKey: string, now: Date) {
  return db
    .updateTable('sandbox_charges')
    .set((eb) => ({ refunded_at: eb.fn.coalesce('refunded_at', eb.val(now)) }))
    .where('idempotency_key', '=', idempotencyKey)
    .where('status', '=', 'approved')
    .returning(['charge_id', 'refunded_at'])
    .executeTakeFirst();
}

export type PartRefundResult =
  | { kind: 'refunded'; refund: { refund_id: string; charge_id: string; amount: number; currency: string } }
  | { kind: 'unknown-charge' }
  | { kind: 'key-reused' }
  | { kind: 'more-than-left'; left: number };

/**
 * Gives back `amount` of the approved charge made under `chargeKey`, once per
 * `refundKey`: the same key again gets the first refund back, and the same
 * key for another charge or amount is refused. The charge's row is locked
 * while its refunds are added up, so refunds racing each other never give
 * back more than it took.
 */
export async function refundPart(
  db: Kysely<Database>,
  request: { chargeKey: string; refundKey: string; amount: number },
  now: Date,
): Promise<PartRefundResult> {
  return db.transaction().execute(async (trx) => {
    const charge = await trx
      .selectFrom('sandbox_charges')
      .selectAll()
      .where('idempotency_key', '=', request.chargeKey)
      .where('status', '=', 'approved')
      .forUpdate()
      .executeTakeFirst();
    if (!charge) return { kind: 'unknown-charge' };
    const view = (row: { refund_id: string; amount: number; currency: string }) => ({
      refund_id: row.refund_id,
      charge_id: charge.charge_id,
      amount: row.amount,
      currency: row.currency,
    });
    const first = await trx
      .selectFrom('sandbox_refunds')
      .selectAll()
      .where('refund_key', '=', request.refundKey)
      .executeTakeFirst();
    if (first) {
      return first.charge_id === charge.charge_id && first.amount === request.amount
        ? { kind: 'refunded', refund: view(first) }
        : { kind: 'key-reused' };
    }
    const { refunded } = await trx
      .selectFrom('sandbox_refunds')
      .select(sql<number>`coalesce(sum(amount), 0)::int8`.as('refunded'))
      .where('charge_id', '=', charge.charge_id)
      .executeTakeFirstOrThrow();
    const left = charge.refunded_at === null ? charge.amount - refunded : 0;
    if (request.amount > left) return { kind: 'more-than-left', left };
    const refund = {
      refund_key: request.refundKey,
      refund_id: `re_${randomBytes(12).toString('hex')}`,
      charge_id: charge.charge_id,
      amount: request.amount,
      currency: charge.currency,
      created_at: now,
    };
    await trx.insertInto('sandbox_refunds').values(refund).execute();
    return { kind: 'refunded', refund: view(refund) };
  });
}
