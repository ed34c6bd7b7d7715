import { errorCodes, ledgerRefusalCodes, type ReturnSaleRequest } from '@peeks/contracts';
import { finishCardReturn, firstEvent } from '@peeks/card-processor';
import { LedgerRuleViolation, merchantOwnerId, type Cash, type TransactionRecord } from '@peeks/ledger';
import { loadTransaction } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import { refuse } from '../../plugins/error-envelope.ts';
import { runLedgerCommand, transactionIdFor } from '../payments/index.ts';
import type { ActingMerchant } from '../merchants/index.ts';

/**
 * A merchant's return of a sale, in three steps, each safe to run again:
 * 1. the ledger's ReturnSale, under a transaction id from the
 *    Idempotency-Key: the money leaves the merchant's wallet at once;
 * 2. for a sale charged to a card, the processor's refund, keyed by the
 *    return's transaction id, so asking again gets the same refund;
 * 3. ConfirmCardRefund, which completes the return once.
 * A crash or timeout after step 1 leaves the return pending; the same
 * request again (same Idempotency-Key) replays step 1 and finishes 2 and 3,
 * and if nobody asks again, the workers' card-return retry finishes them.
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
  const { cardCharges, ledgerSettings, clock } = request.server;
  const deps = { db, cardCharges, ledgerSettings, clock, log: request.log };
  return (await finishCardReturn(deps, record.txId, request.id)) ?? record;
}

/** The form field a refusal is about, so the dialog shows it beside the field. */
function withField(error: LedgerRuleViolation) {
  const field =
    error.code === 'required_field' ? 'reason' : error.code === 'transaction_not_found' ? 'tx_id' : 'amount';
  const code = ledgerRefusalCodes[error.code];
  return refuse(code >= 40400 && code < 40500 ? 404 : 422, code, { field });
}

/**
 * What the card gets back for `amount` of the sale: the same in a USD or
 * CAD sale; for coins, the same share of the charge, rounded down (the
 * processor never refunds more than the charge).
 */
async function cardRefundOf(request: FastifyRequest, sale: TransactionRecord, amount: number): Promise<Cash> {
  const event = await firstEvent(request.server.db, sale.txId);
  const charge = event?.type === 'FundsTransferred' ? event.data.fundedBy?.charge : undefined;
  if (!charge) return { amount, currency: sale.currency };
  if (charge.currency === sale.currency) return { amount, currency: charge.currency };
  return { amount: Math.max(1, Math.floor((charge.amount * amount) / sale.amount)), currency: charge.currency };
}
