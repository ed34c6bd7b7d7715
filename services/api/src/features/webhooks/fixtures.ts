import { DEFAULT_RATE_MICROS, merchantOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { deliveryIdOf, fanOut } from '@peeks/worker';
import { randomUUID } from 'node:crypto';
import type { TestApp } from '../../test-app.ts';

/** A valid webhook modal form; override any field. */
export const hook = (overrides: Record<string, unknown> = {}) => ({
  state: 'enabled',
  url: 'https://hooks.example.com/peeks',
  events: ['purchase', 'deposit-cleared'],
  ...overrides,
});

/**
 * A delivery of the merchant's webhook that may be replayed: a purchase
 * into the merchant's wallet, fanned out as the worker does, then marked
 * failed as after its schedule ran out (no worker runs in the API tests).
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
  await fanOut(subject.database.db, subject.app.jobs, txId, 1, new Date());
  const deliveryId = deliveryIdOf(txId, 1, webhookId);
  await subject.database.db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', next_attempt_at: null })
    .where('delivery_id', '=', deliveryId)
    .execute();
  return deliveryId;
}
