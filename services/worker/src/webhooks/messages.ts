import type { WebhookEvent } from '@peeks/contracts';
import { ownerOf, walletParts, type TransactionEvent } from '@peeks/ledger';
import { createHash } from 'node:crypto';

/**
 * Which ledger events a merchant's webhooks hear about, and what they are
 * told. The spec names the webhook events (deposit-entered, ...); this maps
 * the ledger's events onto them:
 *
 * - deposit-entered: DepositEntered; deposit-cleared: DepositCleared.
 * - withdraw-entered: WithdrawalRequested; withdraw-processed: WithdrawalProcessed.
 * - purchase: coins bought (CoinsPurchased, CardDepositMade) and a sale paid
 *   to the merchant (FundsTransferred of kind PURCHASE, told to the payee).
 * - return: money that came back or never arrived: a withdrawal the payout
 *   failed (WithdrawalFailed: the reserved coins return to the wallet) and a
 *   deposit an operator rejected (DepositRejected). An expired deposit is
 *   not a return: nothing was paid, and the deposit simply lapses.
 * - settlement: MerchantBatchSettled.
 */
export function webhookEventOf(event: TransactionEvent): WebhookEvent | null {
  switch (event.type) {
    case 'DepositEntered':
      return 'deposit-entered';
    case 'DepositCleared':
      return 'deposit-cleared';
    case 'WithdrawalRequested':
      return 'withdraw-entered';
    case 'WithdrawalProcessed':
      return 'withdraw-processed';
    case 'CoinsPurchased':
    case 'CardDepositMade':
      return 'purchase';
    case 'FundsTransferred':
      return event.data.kind === 'PURCHASE' ? 'purchase' : null;
    case 'WithdrawalFailed':
    case 'DepositRejected':
      return 'return';
    case 'MerchantBatchSettled':
      return 'settlement';
    default:
      return null;
  }
}

/** The wallet owner an event is told to, when the event names it; null when only its transaction does (a rejected deposit). */
export function toldOwnerOf(event: TransactionEvent): string | null {
  switch (event.type) {
    case 'DepositEntered':
    case 'WithdrawalRequested':
    case 'CoinsPurchased':
    case 'CardDepositMade':
      return event.data.ownerId;
    case 'FundsTransferred':
      return event.data.toOwnerId;
    case 'DepositCleared':
    case 'WithdrawalProcessed':
    case 'WithdrawalFailed':
    case 'MerchantBatchSettled':
      return walletParts(event.data.walletId)?.ownerId ?? null;
    default:
      return null;
  }
}

/**
 * Whether an event may have webhooks to tell: one of the webhook events,
 * told to a merchant (webhooks are the merchant's), or to an owner only its
 * transaction names. Decided from the event alone, so a personal wallet's
 * purchase, the common case, enqueues no fan-out job at all.
 */
export function mayTellWebhooks(event: TransactionEvent): boolean {
  if (webhookEventOf(event) === null) return false;
  const owner = toldOwnerOf(event);
  return owner === null || ownerOf(owner)?.kind === 'merchant';
}

/** What a webhook message says about its event: the transaction and the event's own figures, in the API's snake_case. */
export function messageData(event: TransactionEvent): Record<string, unknown> {
  const data = event.data as Record<string, unknown>;
  const walletId =
    typeof data.walletId === 'string' ? data.walletId : typeof data.toWalletId === 'string' ? data.toWalletId : null;
  const currency =
    typeof data.currency === 'string' ? data.currency : walletId ? (walletParts(walletId)?.currency ?? null) : null;
  const told: Record<string, unknown> = { transaction_id: event.data.txId, ledger_event: event.type };
  if (typeof data.amount === 'number') told.amount = data.amount;
  if (typeof data.fee === 'number') told.fee = data.fee;
  // The wallet's currency: a coin purchase's amount is in coins, whatever the card was charged in.
  if (currency !== null) told.currency = currency;
  for (const [from, to] of [
    ['method', 'method'],
    ['reference', 'reference'],
    ['reason', 'reason'],
    ['payoutReference', 'payout_reference'],
    ['batchId', 'merchant_batch_id'],
    ['memo', 'memo'],
    ['payment', 'payment'],
    ['charge', 'charge'],
  ] as const) {
    if (data[from] !== undefined && data[from] !== null) told[to] = data[from];
  }
  return told;
}

/**
 * The Standard Webhooks body: {type, timestamp, data}. `timestamp` is when
 * the event happened, so every attempt and replay sends the same bytes.
 */
export function messageBody(type: WebhookEvent, happenedAt: Date, event: TransactionEvent): string {
  return JSON.stringify({ type, timestamp: happenedAt.toISOString(), data: messageData(event) });
}

/**
 * The `webhook-id` of one event's message to one webhook: derived, so the
 * fan-out of an event makes each delivery once however often it runs, and
 * the same on every attempt, for the receiver to drop duplicates by.
 */
export function deliveryIdOf(txId: string, eventVersion: number, webhookId: number): string {
  return `msg_${createHash('sha256').update(`${txId}\n${eventVersion}\n${webhookId}`).digest('hex').slice(0, 32)}`;
}
