import type { TransactionEvent } from '@peeks/ledger';
import { describe, expect, it } from 'vitest';
import { jobsCausedBy, mayTellWebhooks, webhookEventOf } from '@peeks/jobs';
import { deliveryIdOf, messageData } from './messages.ts';

const movement = { txId: 'tx-1', postings: [], coins: [] };
const shop = 'merchant-7';
const events = {
  deposit: {
    type: 'DepositEntered',
    data: {
      ...movement,
      walletId: `wallet:${shop}:CON`,
      ownerId: shop,
      method: 'zelle',
      payment: { amount: 10_00, currency: 'USD' },
      amount: 9_50,
      rateMicros: 1,
      reference: 'PKS-AB12-CD34',
      expiresAt: null,
    },
  },
  cleared: {
    type: 'DepositCleared',
    data: { ...movement, walletId: `wallet:${shop}:CON`, amount: 9_50, clearedBy: 'operator' },
  },
  rejected: { type: 'DepositRejected', data: { ...movement, reason: 'no payment', rejectedBy: 'operator' } },
  withdraw: {
    type: 'WithdrawalRequested',
    data: {
      ...movement,
      walletId: `wallet:${shop}:USD`,
      ownerId: shop,
      amount: 5_00,
      currency: 'USD',
      destination: { kind: 'bank', paymentMethodId: '3' },
    },
  },
  paidOut: {
    type: 'WithdrawalProcessed',
    data: { ...movement, walletId: `wallet:${shop}:USD`, amount: 5_00, payoutReference: 'po_1' },
  },
  payoutFailed: {
    type: 'WithdrawalFailed',
    data: { ...movement, walletId: `wallet:${shop}:USD`, amount: 5_00, reason: 'card declined' },
  },
  sale: {
    type: 'FundsTransferred',
    data: {
      ...movement,
      kind: 'PURCHASE',
      fromWalletId: 'wallet:user-1:CON',
      fromOwnerId: 'user-1',
      toWalletId: `wallet:${shop}:CON`,
      toOwnerId: shop,
      amount: 3_00,
      fee: 0,
      currency: 'CON',
      hold: null,
      memo: 'order 12',
    },
  },
  gift: {
    type: 'FundsTransferred',
    data: {
      ...movement,
      kind: 'P2P',
      fromWalletId: 'wallet:user-1:CON',
      fromOwnerId: 'user-1',
      toWalletId: 'wallet:user-2:CON',
      toOwnerId: 'user-2',
      amount: 3_00,
      fee: 0,
      currency: 'CON',
      hold: null,
      memo: null,
    },
  },
  personalPurchase: {
    type: 'CoinsPurchased',
    data: {
      ...movement,
      walletId: 'wallet:user-1:CON',
      ownerId: 'user-1',
      amount: 10_00,
      charge: { amount: 10_00, currency: 'USD' },
      rateMicros: 1,
      paymentMethod: { id: '1', type: 'CC' },
    },
  },
  settled: {
    type: 'MerchantBatchSettled',
    data: {
      ...movement,
      walletId: `wallet:${shop}:CON`,
      merchantId: shop,
      batchId: 'batch-1',
      amount: 20_00,
      fee: 10,
      currency: 'CON',
    },
  },
  released: { type: 'HoldReleased', data: { ...movement, walletId: `wallet:${shop}:CON`, amount: 1_00 } },
} satisfies Record<string, TransactionEvent>;

describe('which ledger events are webhook events', () => {
  it("maps each to the spec's event, or to none", () => {
    expect(Object.fromEntries(Object.entries(events).map(([name, event]) => [name, webhookEventOf(event)]))).toEqual({
      deposit: 'deposit-entered',
      cleared: 'deposit-cleared',
      rejected: 'return',
      withdraw: 'withdraw-entered',
      paidOut: 'withdraw-processed',
      payoutFailed: 'return',
      sale: 'purchase',
      gift: null,
      personalPurchase: 'purchase',
      settled: 'settlement',
      released: null,
    });
  });

  it('enqueues a fan-out only for what a merchant may hear of (a rejected deposit names its owner only in its transaction)', () => {
    expect(
      Object.entries(events)
        .filter(([, event]) => mayTellWebhooks(event))
        .map(([name]) => name),
    ).toEqual(['deposit', 'cleared', 'rejected', 'withdraw', 'paidOut', 'payoutFailed', 'sale', 'settled']);
    const jobs = jobsCausedBy('tx-1', [
      { ...events.sale, version: 1 },
      { ...events.personalPurchase, version: 2 },
    ]);
    expect(jobs.map((job) => [job.queue, job.data])).toEqual([['webhook-fan-out', { txId: 'tx-1', eventVersion: 1 }]]);
    expect(jobsCausedBy('tx-1', [{ ...events.sale, version: 1 }])[0]?.id).toBe(jobs[0]?.id);
  });
});

describe("a person's own wallet", () => {
  const person = 'user-42';
  const ofPerson = (event: TransactionEvent): TransactionEvent =>
    JSON.parse(JSON.stringify(event).replaceAll(shop, person)) as TransactionEvent;

  it('enqueues a fan-out for its deposits, withdrawals and returns, never for its purchases', () => {
    expect(
      Object.entries(events)
        .map(([name, event]) => [name, ofPerson(event)] as const)
        .filter(([, event]) => mayTellWebhooks(event))
        .map(([name]) => name),
    ).toEqual(['deposit', 'cleared', 'rejected', 'withdraw', 'paidOut', 'payoutFailed']);
    expect(mayTellWebhooks(events.personalPurchase)).toBe(false);
  });
});

describe('what a message says', () => {
  it("carries the transaction and the event's figures in snake_case, with the wallet's currency", () => {
    expect(messageData(events.cleared)).toEqual({
      transaction_id: 'tx-1',
      ledger_event: 'DepositCleared',
      amount: 9_50,
      currency: 'CON',
    });
    expect(messageData(events.paidOut)).toEqual({
      transaction_id: 'tx-1',
      ledger_event: 'WithdrawalProcessed',
      amount: 5_00,
      currency: 'USD',
      payout_reference: 'po_1',
    });
    expect(messageData(events.settled)).toEqual({
      transaction_id: 'tx-1',
      ledger_event: 'MerchantBatchSettled',
      amount: 20_00,
      fee: 10,
      currency: 'CON',
      merchant_batch_id: 'batch-1',
    });
    expect(messageData(events.sale)).toEqual({
      transaction_id: 'tx-1',
      ledger_event: 'FundsTransferred',
      amount: 3_00,
      fee: 0,
      currency: 'CON',
      memo: 'order 12',
    });
  });

  it('has one webhook-id per event and webhook', () => {
    expect(deliveryIdOf('tx-1', 1, 5)).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(deliveryIdOf('tx-1', 1, 5)).toBe(deliveryIdOf('tx-1', 1, 5));
    expect(
      new Set([
        deliveryIdOf('tx-1', 1, 5),
        deliveryIdOf('tx-1', 2, 5),
        deliveryIdOf('tx-1', 1, 6),
        deliveryIdOf('tx-2', 1, 5),
      ]).size,
    ).toBe(4);
  });
});
