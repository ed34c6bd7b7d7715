import { DEFAULT_RATE_MICROS, merchantOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomBytes, randomUUID } from 'node:crypto';
import type { TestApp } from './app.ts';

/** A valid webhook modal form; override any field. */
export const hook = (overrides: Record<string, unknown> = {}) => ({
  state: 'enabled',
  url: 'https://hooks.example.com/peeks',
  events: ['purchase', 'deposit-cleared'],
  ...overrides,
});

/**
 * A delivery of the merchant's webhook that may be replayed: a purchase
 * into the merchant's wallet, and the delivery of its event as the workers'
 * fan-out writes it, failed as after its schedule ran out (no worker runs
 * in the API tests).
 */
export async function failedDelivery(subject: TestApp, merchantId: number, webhookId: number): Promise<string> {
  const txId = randomUUID();
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'PurchaseCoins',
      txId,
      ownerId: merchantOwnerId(merchantId),
      charge: { amount: 5_00, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'test', type: 'CC' },
    },
    subject.app.ledgerSettings,
  );
  const deliveryId = `msg_${randomBytes(16).toString('hex')}`;
  const now = new Date();
  await subject.database.db
    .insertInto('webhook_deliveries')
    .values({
      delivery_id: deliveryId,
      webhook_id: webhookId,
      event_type: 'purchase',
      tx_id: txId,
      event_version: 1,
      body: JSON.stringify({ type: 'purchase', timestamp: now.toISOString(), data: { transaction_id: txId } }),
      state: 'failed',
      attempts_scheduled: 1,
      created_at: now,
      next_attempt_at: null,
      delivered_at: null,
    })
    .execute();
  return deliveryId;
}
