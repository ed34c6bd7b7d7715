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
