import { amountMessages, depositFundRequest, depositFundResponse, errorCodes, paymentMethodMessages, purchaseRequest, transactionResponse, withdrawRequest } from '@peeks/contracts';
import { IdempotencyKeyReused, type Database, type PaymentMethodsTable } from '@peeks/db';
import { DEFAULT_RATE_MICROS, LedgerRuleViolation, type Cash, type LedgerCommand } from '@peeks/ledger';
import type { LedgerOutcome } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, Selectable } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { idempotencyKeyOf, runLedgerCommand, sessionWalletOwner, transactionIdFor, transactionView } from '../../plugins/ledger.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { cardTokenOf, findPaymentMethod, notFound } from '../payment-methods/queries.ts';
import { chargeForCoins, purchasableCoins } from './pricing.ts';

type StoredMethod = Selectable<PaymentMethodsTable>;

/** The caller's own live method, else 404 (10501) whoever's it is. */
async function ownMethod(db: Kysely<Database>, userId: number, paymentMethodId: number, field: string): Promise<StoredMethod> {
  const method = await findPaymentMethod(db, userId, paymentMethodId);
  if (!method) throw notFound(field);
  return method;
}

function requireCard(method: StoredMethod, field: string): StoredMethod {
  if (method.type !== 'CC') throw refuse(422, errorCodes.paymentMethodWrongUse, { field, message: 'Please select a credit card' });
  return method;
}

const paymentMethodRef = (method: StoredMethod) => ({ id: String(method.payment_method_id), type: method.type });

/**
 * Charges the card, then records the money in the ledger, both under one
 * transaction id: the processor's idempotency key is that id, so a retry
 * with the same Idempotency-Key (after a crash between the two steps, a
 * timeout, or a duplicate in flight) gets the first charge back and the
 * ledger's first outcome, and never charges or mints twice. A declined card
 * writes nothing to the ledger; a charge the ledger then refuses (the wallet
 * was closed meanwhile) is refunded, so no money is taken unrecorded.
 */
async function chargeThenRecord(request: FastifyRequest, ownerId: string, card: StoredMethod, charge: Cash, commandFor: (txId: string) => LedgerCommand): Promise<LedgerOutcome> {
  const txId = transactionIdFor(request, ownerId);
  const result = await request.server.cardCharges.charge({ token: cardTokenOf(card), amount: charge.amount, currency: charge.currency, idempotencyKey: txId });
  if (result.status === 'declined') throw refuse(422, errorCodes.cardDeclined, { field: 'payment_method_id' });
  // The tx id comes from the Idempotency-Key: the key's first request charged something else.
  if (result.status === 'key-reused') throw new IdempotencyKeyReused(idempotencyKeyOf(request) ?? txId);
  if (result.status === 'refused') {
    request.log.warn({ reason: result.reason, txId }, 'card processor refused a charge');
    throw refuse(422, errorCodes.chargeRefused, { field: 'payment_method_id' });
  }
  try {
    return await runLedgerCommand(request, ownerId, commandFor(txId));
  } catch (error) {
    if (error instanceof LedgerRuleViolation) await refundRefused(request, txId);
    throw error;
  }
}

async function refundRefused(request: FastifyRequest, txId: string): Promise<void> {
  try {
    await request.server.cardCharges.refund(txId);
    request.log.info({ txId }, 'refunded a charge the ledger refused');
  } catch (error) {
    // The client still hears the ledger's refusal; finance finds the charge by this line.
    request.log.error({ err: error, txId }, 'could not refund a charge the ledger refused');
  }
}

/** Buying coins and adding funds with a stored card, and withdrawing to a stored card or bank account. */
export const cardPaymentRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);
  const rateMicros = DEFAULT_RATE_MICROS;

  app.post('/api/account/purchase', { schema: { body: purchaseRequest, response: { 200: transactionResponse } } }, async (request) => {
    const { userId } = signedIn(request);
    const ownerId = sessionWalletOwner(request);
    const { payment_method_id, coin_amt, currency } = request.body;
    const card = requireCard(await ownMethod(app.db, userId, payment_method_id, 'payment_method_id'), 'payment_method_id');
    const limits = purchasableCoins(currency, rateMicros);
    if (coin_amt < limits.min * 100) throw refuse(400, errorCodes.amountBelowMinimum, { field: 'coin_amt', message: amountMessages.below(limits.min) });
    if (coin_amt > limits.max * 100) throw refuse(400, errorCodes.amountAboveLimit, { field: 'coin_amt', message: amountMessages.above(limits.max) });
    const charge = { amount: chargeForCoins(coin_amt, currency, rateMicros), currency };
    const outcome = await chargeThenRecord(request, ownerId, card, charge, (txId) => ({
      type: 'PurchaseCoins', txId, ownerId, charge, rateMicros, paymentMethod: paymentMethodRef(card),
    }));
    return { response: 'success' as const, transaction: transactionView(outcome.record, ownerId) };
  });

  app.post('/api/account/deposit-fund', { schema: { body: depositFundRequest, response: { 200: depositFundResponse } } }, async (request) => {
    const { userId } = signedIn(request);
    const ownerId = sessionWalletOwner(request);
    const { amount, currency, paymentMethodId } = request.body;
    const card = requireCard(await ownMethod(app.db, userId, paymentMethodId, 'paymentMethodId'), 'paymentMethodId');
    const outcome = await chargeThenRecord(request, ownerId, card, { amount, currency }, (txId) => ({
      type: 'DepositByCard', txId, ownerId, amount, currency, paymentMethod: paymentMethodRef(card),
    }));
    return { response: 'success' as const, message: paymentMethodMessages.deposited, transaction: transactionView(outcome.record, ownerId) };
  });

  /** The money is reserved now; a worker or a finance operator pays it out or fails it later. */
  app.post('/api/account/withdraw', { schema: { body: withdrawRequest, response: { 200: transactionResponse } } }, async (request) => {
    const { userId } = signedIn(request);
    const ownerId = sessionWalletOwner(request);
    const { amount, currency, paymentMethodId } = request.body;
    const method = await ownMethod(app.db, userId, paymentMethodId, 'paymentMethodId');
    const txId = transactionIdFor(request, ownerId);
    const outcome = await runLedgerCommand(request, ownerId, {
      type: 'RequestWithdrawal', txId, ownerId, amount, currency,
      destination: { kind: method.type === 'CC' ? 'card' : 'bank', paymentMethodId: String(method.payment_method_id) },
    });
    return { response: 'success' as const, transaction: transactionView(outcome.record, ownerId) };
  });

  return Promise.resolve();
};
