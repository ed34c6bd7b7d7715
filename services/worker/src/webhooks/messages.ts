import type { WebhookEvent } from '@peeks/contracts';
import { walletParts, type TransactionEvent } from '@peeks/ledger';
import { createHash } from 'node:crypto';

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
