import { errorCodes, type ReturnSaleRequest } from '@peeks/contracts';
import { readStream, StreamVersionConflict } from '@peeks/db';
import {
  LedgerRuleViolation,
  merchantOwnerId,
  transactionStream,
  type Cash,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import { executeLedgerCommand, loadTransaction } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import { refuse } from '../../plugins/error-envelope.ts';
import { runLedgerCommand, transactionIdFor } from '../../plugins/ledger.ts';
import { chargeKeyFor } from '../card-payments/charge-key.ts';
import type { ActingMerchant } from '../merchants/acting-merchant.ts';

/**
 * A merchant's return of a sale, in three steps, each safe to run again:
 * 1. the ledger's ReturnSale, under a transaction id from the
 *    Idempotency-Key: the money leaves the merchant's wallet at once;
 * 2. for a sale charged to a card, the processor's refund, keyed by the
 *    return's transaction id, so asking again gets the same refund;
 * 3. ConfirmCardRefund, which completes the return once.
 * A crash or timeout after step 1 leaves the return pending; the same
 * request again (same Idempotency-Key) replays step 1 and finishes 2 and 3.
 */
export async function returnSale(
  request: FastifyRequest,
  acting: ActingMerchant,
  body: ReturnSaleRequest,
): Promise<TransactionRecord> {
  const merchant = merchantOwnerId(acting.merchantId);
  const { db } = request.server;
  const sale = await loadTransaction(db, body.tx_id);
  if (!sale || sale.type !== 'sale' || sale.merchantId !== merchant)
    throw refuse(404, errorCodes.transactionNotFound, { field: 'tx_id' });
  const txId = transactionIdFor(request, merchant);
  let outcome;
  try {
    outcome = await runLedgerCommand(request, merchant, {
      type: 'ReturnSale',
      txId,
      saleTxId: sale.txId,
      merchantOwnerId: merchant,
      amount: body.amount,
      reason: body.reason,
      cardRefund: sale.paymentMethodType === 'CC' ? await cardRefundOf(request, sale, body.amount) : null,
    });
  } catch (error) {
    throw error instanceof LedgerRuleViolation ? withField(error) : error;
  }
  const record = outcome.record;
  if (record.type !== 'return' || record.state !== 'pending') return record;
  return refundToCard(request, record, sale);
}

/** The form field a refusal is about, so the dialog shows it beside the field. */
function withField(error: LedgerRuleViolation) {
  const field =
    error.code === errorCodes.requiredField
      ? 'reason'
      : error.code === errorCodes.transactionNotFound
        ? 'tx_id'
        : 'amount';
  return refuse(error.code >= 40400 && error.code < 40500 ? 404 : 422, error.code, { field });
}

/** The sale's first event: how it was paid. */
async function saleEvent(request: FastifyRequest, txId: string): Promise<TransactionEvent | undefined> {
  const [first] = await readStream(request.server.db, transactionStream(txId), { maxCount: 1 });
  return first as unknown as TransactionEvent | undefined;
}

/**
 * What the card gets back for `amount` of the sale: the same in a USD or
 * CAD sale; for coins, the same share of the charge, rounded down (the
 * processor never refunds more than the charge).
 */
async function cardRefundOf(request: FastifyRequest, sale: TransactionRecord, amount: number): Promise<Cash> {
  const event = await saleEvent(request, sale.txId);
  const charge = event?.type === 'FundsTransferred' ? event.data.fundedBy?.charge : undefined;
  if (!charge) return { amount, currency: sale.currency };
  if (charge.currency === sale.currency) return { amount, currency: charge.currency };
  return { amount: Math.max(1, Math.floor((charge.amount * amount) / sale.amount)), currency: charge.currency };
}

/** What the sale's charge key may be derived from: a checkout's per-card reference, else the sale's own id. */
const chargeReferencesOf = (sale: TransactionRecord) => [`${sale.txId}:card-${sale.paymentMethodId ?? ''}`, sale.txId];

async function refundToCard(
  request: FastifyRequest,
  pending: TransactionRecord,
  sale: TransactionRecord,
): Promise<TransactionRecord> {
  const { db, cardCharges, ledgerSettings } = request.server;
  const event = await saleEvent(request, pending.txId);
  const refund = event?.type === 'SaleReturned' ? event.data.cardRefund : null;
  if (!refund) throw new Error(`return ${pending.txId} is pending with no card refund`);
  let refunded: { refundId: string } | null = null;
  for (const reference of chargeReferencesOf(sale)) {
    const chargeKey = await chargeKeyFor(request.server, reference);
    const answer = await cardCharges.refundPart({ chargeKey, refundKey: pending.txId, amount: refund.amount });
    if (answer !== 'no-charge') {
      refunded = answer;
      break;
    }
  }
  if (!refunded) {
    // The money is out of the merchant's wallet and the processor knows no charge: finance finds it by this line.
    request.log.error({ txId: pending.txId, saleTxId: sale.txId }, 'no card charge to refund for a return');
    return pending;
  }
  try {
    const { record } = await executeLedgerCommand(
      db,
      { type: 'ConfirmCardRefund', txId: pending.txId, refundReference: refunded.refundId },
      ledgerSettings,
      { actor: pending.payerOwnerId, requestId: request.id },
    );
    return record;
  } catch (error) {
    // A retry racing this one confirmed it first.
    const raced =
      error instanceof StreamVersionConflict ||
      (error instanceof LedgerRuleViolation && error.code === errorCodes.transactionStateInvalid);
    if (raced) {
      const current = await loadTransaction(db, pending.txId);
      if (current?.state === 'completed') return current;
    }
    throw error;
  }
}
