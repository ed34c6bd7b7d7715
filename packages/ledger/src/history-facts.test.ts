import { describe, expect, it } from 'vitest';
import { conversionOf, outsideMoneyOf, walletChangeOf } from './history-facts.ts';
import type { TransactionEvent } from './events.ts';

const cardPaidSale: TransactionEvent = {
  type: 'FundsTransferred',
  data: {
    txId: 'tx-1',
    kind: 'PURCHASE',
    fromWalletId: 'wallet:user-1:CON',
    fromOwnerId: 'user-1',
    toWalletId: 'wallet:merchant-2:CON',
    toOwnerId: 'merchant-2',
    amount: 15_00,
    fee: 0,
    currency: 'CON',
    hold: null,
    memo: null,
    fundedBy: { paymentMethod: { id: '7', type: 'CC' }, charge: { amount: 97, currency: 'USD' }, rateMicros: 780_000 },
    postings: [],
    coins: [],
  },
};

describe('history facts', () => {
  it("counts only the owner's wallet of the row's currency, credits less debits", () => {
    const postings = [
      { accountId: 'wallet:user-1:CON', currency: 'CON', amount: 500, debitCredit: 'D' },
      { accountId: 'wallet:user-1:CON', currency: 'CON', amount: 25, debitCredit: 'D' },
      { accountId: 'wallet:user-10:CON', currency: 'CON', amount: 500, debitCredit: 'C' },
      { accountId: 'wallet:user-1:USD', currency: 'USD', amount: 300, debitCredit: 'C' },
      { accountId: 'platform:fees:CON', currency: 'CON', amount: 25, debitCredit: 'C' },
    ];
    expect(walletChangeOf(postings, 'user-1', 'CON')).toBe(-525);
    expect(walletChangeOf(postings, 'user-1', 'USD')).toBe(300);
    expect(walletChangeOf([], 'user-1', 'CON')).toBe(0);
  });

  it("shows the card's charge to the payer only, never to the shop", () => {
    expect(outsideMoneyOf(cardPaidSale, 'user-1')).toEqual({
      amount: 97,
      currency: 'USD',
      source: { paymentMethodId: '7' },
    });
    expect(outsideMoneyOf(cardPaidSale, 'merchant-2')).toBeNull();
  });

  it('reads the conversion of coins bought by card at 15.6 coins a dollar, without a quote id before quotes', () => {
    expect(conversionOf(cardPaidSale)).toEqual({
      quoteId: null,
      from: 'USD',
      to: 'CON',
      amountIn: 97,
      amountOut: 15_00,
      rate: 15.6,
      fee: 0,
    });
  });
});

describe('history facts of deposits', () => {
  const entered: TransactionEvent = {
    type: 'DepositEntered',
    data: {
      txId: 'd-1',
      walletId: 'wallet:user-1:CON',
      ownerId: 'user-1',
      method: 'interac',
      payment: { amount: 40_00, currency: 'CAD' },
      amount: 624_00,
      rateMicros: 780_000,
      reference: 'PKS-ABCD-EFGH',
      expiresAt: null,
      quoteId: 'qt_9',
      postings: [],
      coins: [],
    },
  };
  const credited = (payment?: { amount: number; currency: 'USD' }): TransactionEvent => ({
    type: 'BitcoinPaymentCredited',
    data: {
      txId: 'd-2-credit',
      walletId: 'wallet:user-1:CON',
      ownerId: 'user-1',
      depositTxId: 'd-2',
      sats: 12_000,
      amount: 150_00,
      creditedBy: 'ops',
      ...(payment ? { payment } : {}),
      postings: [],
      coins: [],
    },
  });

  it("names an e-mail deposit's cash and the quote it was entered at", () => {
    expect(outsideMoneyOf(entered, 'user-1')).toEqual({
      amount: 40_00,
      currency: 'CAD',
      source: { depositMethod: 'interac' },
    });
    expect(conversionOf(entered)).toEqual({
      quoteId: 'qt_9',
      from: 'CAD',
      to: 'CON',
      amountIn: 40_00,
      amountOut: 624_00,
      rate: 15.6,
      fee: 0,
    });
  });

  it("names a credited bitcoin payment's dollars, and nothing for one credited before it had them", () => {
    expect(outsideMoneyOf(credited({ amount: 7_50, currency: 'USD' }), 'user-1')).toEqual({
      amount: 7_50,
      currency: 'USD',
      source: { depositMethod: 'bitcoin' },
    });
    expect(conversionOf(credited({ amount: 7_50, currency: 'USD' }))).toMatchObject({
      from: 'USD',
      to: 'CON',
      amountIn: 7_50,
      amountOut: 150_00,
      rate: 20,
    });
    expect(outsideMoneyOf(credited(), 'user-1')).toBeNull();
    expect(conversionOf(credited())).toBeNull();
  });
});
