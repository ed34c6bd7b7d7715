import { errorCodes, ledgerRefusalCodes, type ReturnSaleRequest } from '@peeks/contracts';
import { finishCardReturn, firstEvent } from '@peeks/card-processor';
import { LedgerRuleViolation, merchantOwnerId, walletParts, type Cash, type TransactionRecord } from '@peeks/ledger';
import { loadTransaction } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import { refuse } from '../../plugins/error-envelope.ts';
import { runLedgerCommand, transactionIdFor } from '../payments/index.ts';
import type { ActingMerchant } from '../merchants/index.ts';

/**
 * A merchant's return of a sale, in three steps, each safe to run again:
 * 1. the ledger's ReturnSale, under a transaction id from the
 *    Idempotency-Key: the money leaves the merchant's wallet at once, and,
 *    for a sale charged to a card, the ledger decides the card's refund
 *    (its share of the charge by the sale's returns so far, which the
 *    ledger serializes per sale);
 * 2. for a refund above 0, the processor's refund, keyed by the return's
 *    transaction id, so asking again gets the same refund;
 * 3. ConfirmCardRefund, which completes the return once, or, when the
 *    processor refuses the refund, FailCardRefund, which gives the money
 *    back to the merchant; the merchant gets the refusal as a 422.
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
      cardCharge: sale.paymentMethodType === 'CC' ? await cardChargeOf(request, sale) : null,
      coinsPaid: await coinsPaidFor(request, sale),
    });
  } catch (error) {
    throw error instanceof LedgerRuleViolation ? withField(error) : error;
  }
  let record = outcome.record;
  if (record.type === 'return' && record.state === 'pending') {
    const { cardCharges, ledgerSettings, clock } = request.server;
    const deps = { db, cardCharges, ledgerSettings, clock, log: request.log };
    record = (await finishCardReturn(deps, record.txId, request.id)) ?? record;
  }
  // Refused for good, now or on an earlier try with this key: the money is back in the merchant's wallet.
  if (record.type === 'return' && record.state === 'failed')
    throw refuse(422, errorCodes.cardRefundRefused, { field: 'amount' });
  return record;
}

/** The form field a refusal is about, so the dialog shows it beside the field. */
function withField(error: LedgerRuleViolation) {
  const field =
    error.code === 'required_field' ? 'reason' : error.code === 'transaction_not_found' ? 'tx_id' : 'amount';
  const code = ledgerRefusalCodes[error.code];
  return refuse(code >= 40400 && code < 40500 ? 404 : 422, code, { field });
}

/** The coins a sale of a cash price paid from coins took (its opening event's); null for any other sale. */
async function coinsPaidFor(request: FastifyRequest, sale: TransactionRecord): Promise<number | null> {
  if (sale.payerWalletId === null || walletParts(sale.payerWalletId)?.currency === sale.currency) return null;
  const event = await firstEvent(request.server.db, sale.txId);
  return event?.type === 'FundsTransferred' ? (event.data.paidFromCoins?.coins ?? null) : null;
}

/**
 * What the card was charged for the sale: the ledger refunds a share of it
 * (card-refunds.ts). A sale recorded without its charge was charged its
 * own amount, in its own currency.
 */
async function cardChargeOf(request: FastifyRequest, sale: TransactionRecord): Promise<Cash> {
  const event = await firstEvent(request.server.db, sale.txId);
  const charge = event?.type === 'FundsTransferred' ? event.data.fundedBy?.charge : undefined;
  return charge ?? { amount: sale.amount, currency: sale.currency };
}
