import { errorCodes } from '@peeks/contracts';
import { IdempotencyKeyReused, type Database, type PaymentMethodsTable } from '@peeks/db';
import {
  LedgerRuleViolation,
  RATE_SCALE,
  cashPriceOfCoins,
  type CardFunding,
  type Cash,
  type Currency,
  type LedgerCommand,
} from '@peeks/ledger';
import type { LedgerOutcome } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { chargeKeyFor } from '@peeks/card-processor';
import { idempotencyKeyOf, runLedgerCommand, transactionIdFor } from '../payments/index.ts';
import { cardTokenOf, findPaymentMethod, notFound } from '../payment-methods/index.ts';

/**
 * Paying with a stored card: find the caller's card, charge it, record the
 * money in the ledger. Buying coins, adding funds, sending money and paying
 * a checkout all charge through here.
 */

export type StoredMethod = Selectable<PaymentMethodsTable>;

/** The caller's own live method, else 404 (10501) whoever's it is. */
export async function ownMethod(
  db: Kysely<Database>,
  userId: number,
  paymentMethodId: number,
  field: string,
): Promise<StoredMethod> {
  const method = await findPaymentMethod(db, userId, paymentMethodId);
  if (!method) throw notFound(field);
  return method;
}

/** Only a card can be charged now; a bank account is for withdrawals. */
function requireCard(method: StoredMethod, field: string): StoredMethod {
  if (method.type !== 'CC')
    throw refuse(422, errorCodes.paymentMethodWrongUse, { field, message: 'Please select a credit card' });
  return method;
}

/** The caller's own stored card, else 404 (someone else's or none) or 422 (not a card). */
export async function ownCard(
  db: Kysely<Database>,
  userId: number,
  paymentMethodId: number,
  field: string,
): Promise<StoredMethod> {
  return requireCard(await ownMethod(db, userId, paymentMethodId, field), field);
}

export const paymentMethodRef = (method: StoredMethod) => ({ id: String(method.payment_method_id), type: method.type });

/**
 * What paying `amount` of `currency` with a card charges it, as the ledger's
 * Transfer records it: USD and CAD are charged as they are; coins are
 * charged their cash price in US dollars, the price list's reference (20
 * coins a dollar), as a purchase of them would be (rounded up to the cent).
 * Impressions are not for sale by card.
 */
export function cardFunding(card: StoredMethod, amount: number, currency: Currency, field: string): CardFunding {
  const paymentMethod = paymentMethodRef(card);
  if (currency === 'USD' || currency === 'CAD')
    return { paymentMethod, charge: { amount, currency }, rateMicros: null };
  if (currency === 'CON')
    return {
      paymentMethod,
      charge: { amount: cashPriceOfCoins(amount, 'USD', RATE_SCALE), currency: 'USD' },
      rateMicros: RATE_SCALE,
    };
  throw refuse(422, errorCodes.paymentMethodWrongUse, { field, message: `A card cannot pay in ${currency}` });
}

/** Who pays with which card, how much, and the request field that named the card (for errors). */
export interface CardCharge {
  ownerId: string;
  card: StoredMethod;
  charge: Cash;
  field: string;
}

/**
 * The ledger transaction a charge records, and what the processor's
 * idempotency key is derived from (`chargeKeyFor`). Normally both are the
 * request's transaction id (see `transactionIdFor`); a transaction several
 * payers may race for (a checkout session) gives each card its own reference.
 */
export interface ChargeIds {
  txId: string;
  chargeReference: string;
}

/**
 * Charges the card, then records the money in the ledger, both under one
 * transaction id: the processor's idempotency key follows from that id, so
 * a retry with the same Idempotency-Key (after a crash between the two
 * steps, a timeout, or a duplicate in flight) gets the first charge back and
 * the ledger's first outcome, and never charges or mints twice. A declined
 * card writes nothing to the ledger. What the card paid is in the ledger's
 * event (the history reads it there). A charge is refunded, so no money is
 * taken unrecorded, when the ledger refuses the command (the wallet was
 * closed meanwhile), or when the transaction turns out recorded already
 * without this card (someone else paid the checkout first); the caller
 * still gets that outcome.
 */
export async function chargeThenRecord(
  request: FastifyRequest,
  payment: CardCharge,
  commandFor: (txId: string) => LedgerCommand,
  ids?: ChargeIds,
): Promise<LedgerOutcome> {
  const { ownerId, card, charge, field } = payment;
  const { txId, chargeReference } = ids ?? requestIds(request, ownerId);
  const chargeKey = await chargeKeyFor(request.server, chargeReference);
  const result = await request.server.cardCharges.charge({
    token: cardTokenOf(card),
    amount: charge.amount,
    currency: charge.currency,
    idempotencyKey: chargeKey,
  });
  if (result.status === 'declined') throw refuse(422, errorCodes.cardDeclined, { field });
  // The charge key comes from the Idempotency-Key: the key's first request charged something else.
  if (result.status === 'key-reused') throw new IdempotencyKeyReused(idempotencyKeyOf(request) ?? chargeKey);
  if (result.status === 'refused') {
    request.log.warn({ reason: result.reason, txId }, 'card processor refused a charge');
    throw refuse(422, errorCodes.chargeRefused, { field });
  }
  let outcome: LedgerOutcome;
  try {
    outcome = await runLedgerCommand(request, ownerId, commandFor(txId));
  } catch (error) {
    if (error instanceof LedgerRuleViolation)
      await refundUnrecorded(request, chargeKey, 'refunded a charge the ledger refused');
    throw error;
  }
  if (outcome.record.paymentMethodId !== String(card.payment_method_id))
    await refundUnrecorded(request, chargeKey, 'refunded a charge for a transaction recorded without it');
  return outcome;
}

function requestIds(request: FastifyRequest, ownerId: string): ChargeIds {
  const txId = transactionIdFor(request, ownerId);
  return { txId, chargeReference: txId };
}

async function refundUnrecorded(request: FastifyRequest, chargeKey: string, done: string): Promise<void> {
  try {
    await request.server.cardCharges.refund(chargeKey);
    request.log.info({ chargeKey }, done);
  } catch (error) {
    // The client still hears the ledger's answer; finance finds the charge by this line.
    request.log.error({ err: error, chargeKey }, 'could not refund a charge the ledger did not record');
  }
}
