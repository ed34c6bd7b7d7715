import { personalWebhookEvents, type WebhookEvent } from '@peeks/contracts';
import { ownerOf, walletParts, type TransactionEvent } from '@peeks/ledger';

/**
 * Which ledger events a merchant's webhooks hear about, and what they are
 * told. The spec names the webhook events (deposit-entered, ...); this maps
 * the ledger's events onto them:
 *
 * - deposit-entered: DepositEntered; deposit-cleared: DepositCleared.
 * - withdraw-entered: WithdrawalRequested; withdraw-processed: WithdrawalProcessed.
 * - purchase: coins bought (CoinsPurchased, CardDepositMade) and a sale paid
 *   to the merchant (FundsTransferred of kind PURCHASE, told to the payee).
 * - return: a sale the merchant gave back, in part or in full (SaleReturned,
 *   told to the merchant); and money that came back or never arrived: a withdrawal the payout
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
    case 'SaleReturned':
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
    case 'SaleReturned':
      return event.data.merchantOwnerId;
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
 * told to a merchant, to an owner only its transaction names, or to a
 * person when it is money in or out of their own wallet (deposits,
 * withdrawals, returns; personal webhooks hear nothing else). Decided from
 * the event alone, so a personal wallet's purchase or transfer, the common
 * case, enqueues no fan-out job at all.
 */
export function mayTellWebhooks(event: TransactionEvent): boolean {
  const type = webhookEventOf(event);
  if (type === null) return false;
  const owner = toldOwnerOf(event);
  if (owner === null) return true;
  const kind = ownerOf(owner)?.kind;
  return kind === 'merchant' || (kind === 'user' && tellsPersonalWebhooks(type));
}

const personal: readonly WebhookEvent[] = personalWebhookEvents;

/** Whether a personal user's webhooks hear about this kind of event. */
export const tellsPersonalWebhooks = (type: WebhookEvent) => personal.includes(type);
