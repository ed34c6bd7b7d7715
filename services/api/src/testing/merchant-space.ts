import { transactionResponse, type Currency } from '@peeks/contracts';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { newCheckout } from './checkout.ts';
import { signedUp, type SignedIn } from './merchants.ts';
import { fund } from './money.ts';
import { storedCard } from './payment-methods.ts';

export interface Sale {
  buyer: SignedIn;
  txId: string;
}

/**
 * A buyer pays `merchant`'s checkout of `total` (minor units of `currency`):
 * from a funded wallet, or with a stored card when `card` is set.
 */
export async function checkoutSale(
  subject: TestApp,
  merchant: SignedIn,
  options: { total?: number; currency?: Currency; card?: boolean; buyer?: SignedIn } = {},
): Promise<Sale> {
  const { total = 10_00, currency = 'USD', card = false } = options;
  const buyer = options.buyer ?? (await signedUp(subject, 'personal'));
  const checkout = await newCheckout(merchant, {
    cart: [{ sku: 'MUG-01', name: 'Maple mug', price: total }],
    total,
    currency,
  });
  const paymentMethodId = card ? await storedCard(subject, buyer) : undefined;
  if (!card) await fund(subject, userOwnerId(buyer.user.user_id), total, currency);
  const response = await buyer.browser.post('/api/checkout/pay', {
    id: checkout.id,
    token: checkout.token,
    ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return { buyer, txId: transactionResponse.parse(response.json()).transaction.tx_id };
}

/** A sale to `owner`'s merchant straight through the ledger (no HTTP): its transaction id. */
export async function saleToOwner(owner: SignedIn, subject: TestApp, amount = 5_00): Promise<string> {
  const buyer = await signedUp(subject, 'personal');
  const buyerId = userOwnerId(buyer.user.user_id);
  await fund(subject, buyerId, amount, 'USD');
  const txId = `sale-${randomUUID()}`;
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'Transfer',
      txId,
      kind: 'PURCHASE',
      fromOwnerId: buyerId,
      toOwnerId: merchantOwnerId(owner.merchantId),
      amount,
      fee: 0,
      currency: 'USD',
      memo: null,
    },
    subject.app.ledgerSettings,
  );
  return txId;
}

/** A settlement batch of `owner`'s merchant, as the daily settlement writes one: its batch id. */
export async function settlementOfOwner(owner: SignedIn, subject: TestApp): Promise<string> {
  const merchant = merchantOwnerId(owner.merchantId);
  await fund(subject, merchant, 3_00, 'USD');
  const batchId = `${merchant}:USD:${randomUUID()}`;
  await executeLedgerCommand(
    subject.database.db,
    {
      type: 'SettleMerchantBatch',
      txId: `settle-${randomUUID()}`,
      merchantId: merchant,
      batchId,
      amount: 3_00,
      fee: 0,
      currency: 'USD',
    },
    subject.app.ledgerSettings,
  );
  return batchId;
}
