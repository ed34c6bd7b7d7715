import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walletIdOf } from '../accounts.ts';
import type { LedgerCommand } from '../commands.ts';
import { LedgerRuleViolation } from '../errors.ts';
import type { TransactionEvent } from '../events.ts';
import { cardRefundedBy } from '../card-refunds.ts';
import { balanceChangesOf, saleReturnOf } from '../projection.ts';
import { evolveTransaction, type TransactionRecord } from '../transaction.ts';
import { decide, leftToReturn, needsOf, type LedgerState, type WalletState } from './index.ts';

const now = new Date('2026-11-21T12:00:00Z');
const context = () => {
  let next = 0;
  return { now, newSerial: () => `S${++next}`, holdHours: 24, cardFundsHoldHours: 168 };
};
const wallet = (ownerId: string, currency: WalletState['currency'], available: number): WalletState => ({
  walletId: walletIdOf(ownerId, currency),
  ownerId,
  currency,
  status: 'open',
  total: available,
  available,
  withdrawable: available,
  reserved: 0,
});

/** A sale of `amount` from Ann to the coffee shop, as its stream folds it; paid by card when `card` says so. */
function saleOf(amount: number, currency: WalletState['currency'], card = false): TransactionRecord {
  const event: TransactionEvent = {
    type: 'FundsTransferred',
    data: {
      txId: 'sale-1',
      kind: 'PURCHASE',
      fromWalletId: walletIdOf('user-1', currency),
      fromOwnerId: 'user-1',
      toWalletId: walletIdOf('merchant-1', currency),
      toOwnerId: 'merchant-1',
      amount,
      fee: 0,
      currency,
      hold: null,
      memo: null,
      postings: [],
      coins: [],
      ...(card
        ? { fundedBy: { paymentMethod: { id: '7', type: 'CC' }, charge: { amount, currency }, rateMicros: null } }
        : {}),
    },
  };
  return evolveTransaction(null, event, now);
}

const returning = (fields: Partial<Extract<LedgerCommand, { type: 'ReturnSale' }>> = {}): LedgerCommand => ({
  type: 'ReturnSale',
  txId: 'return-1',
  saleTxId: 'sale-1',
  merchantOwnerId: 'merchant-1',
  amount: 400,
  reason: 'cold coffee',
  cardCharge: null,
  ...fields,
});

const given = (
  sale: TransactionRecord | null,
  returned: number,
  wallets: WalletState[],
  coins: LedgerState['coins'] = [],
  cardRefunded = 0,
) =>
  ({
    tx: null,
    sale: sale && { record: sale, returned, cardRefunded },
    wallets: new Map(wallets.map((entry) => [entry.walletId, entry])),
    coins,
  }) satisfies LedgerState;

const refusalOf = (command: LedgerCommand, state: LedgerState) => {
  try {
    decide(command, state, context());
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('ReturnSale', () => {
  it('given a sale of 1,000 with 500 returned, when the merchant returns 400 to the wallet, moves it back and opens a return whose parent is the sale', () => {
    const sale = saleOf(1_000, 'USD');
    const state = given(sale, 500, [wallet('merchant-1', 'USD', 2_000), wallet('user-1', 'USD', 0)]);
    expect(needsOf(returning(), sale).wallets).toEqual([walletIdOf('merchant-1', 'USD'), walletIdOf('user-1', 'USD')]);
    const [event] = decide(returning(), state, context());
    if (!event) throw new Error('no event');
    expect(event.type).toBe('SaleReturned');
    expect(event.data.postings).toEqual([
      { account: 'wallet:merchant-1:USD', currency: 'USD', amount: -400, type: 'RETURN' },
      { account: 'wallet:user-1:USD', currency: 'USD', amount: 400, type: 'RETURN' },
    ]);
    expect(balanceChangesOf(event).map(([walletId, change]) => [walletId, change.available])).toEqual([
      ['wallet:merchant-1:USD', -400],
      ['wallet:user-1:USD', 400],
    ]);
    const record = evolveTransaction(null, event, now);
    expect(saleReturnOf(event, record)).toEqual({ saleTxId: 'sale-1', amount: 400, made: true });
    expect(record).toMatchObject({ type: 'return', state: 'completed', parentTxId: 'sale-1', amount: 400 });
    expect(record.reason).toBe('cold coffee');
  });

  it('refuses more than what is left of the sale, and accepts exactly what is left', () => {
    const sale = saleOf(1_000, 'USD');
    const wallets = [wallet('merchant-1', 'USD', 5_000), wallet('user-1', 'USD', 0)];
    expect(refusalOf(returning({ amount: 501 }), given(sale, 500, wallets))).toBe('return_exceeds_sale');
    expect(decide(returning({ amount: 500 }), given(sale, 500, wallets), context())).toHaveLength(1);
  });

  it("is not found for another merchant's sale, a missing sale, or a transaction that is not a sale", () => {
    const sale = saleOf(1_000, 'USD');
    const wallets = [wallet('merchant-1', 'USD', 5_000), wallet('user-1', 'USD', 0)];
    expect(refusalOf(returning({ merchantOwnerId: 'merchant-2' }), given(sale, 0, wallets))).toBe(
      'transaction_not_found',
    );
    expect(refusalOf(returning(), given(null, 0, wallets))).toBe('transaction_not_found');
    expect(refusalOf(returning(), given({ ...sale, type: 'transfer' }, 0, wallets))).toBe('transaction_not_found');
  });

  it('needs a reason and the money in the merchant wallet', () => {
    const sale = saleOf(1_000, 'USD');
    expect(
      refusalOf(
        returning({ reason: '  ' }),
        given(sale, 0, [wallet('merchant-1', 'USD', 5_000), wallet('user-1', 'USD', 0)]),
      ),
    ).toBe('required_field');
    expect(refusalOf(returning(), given(sale, 0, [wallet('merchant-1', 'USD', 399), wallet('user-1', 'USD', 0)]))).toBe(
      'insufficient_funds',
    );
  });

  it('given a card-paid sale, returns to the card-funding account and stays pending until the refund is confirmed', () => {
    const sale = saleOf(1_000, 'USD', true);
    const command = returning({ cardCharge: { amount: 1_000, currency: 'USD' } });
    expect(needsOf(command, sale).wallets).toEqual([walletIdOf('merchant-1', 'USD')]);
    const [event] = decide(command, given(sale, 0, [wallet('merchant-1', 'USD', 5_000)]), context());
    if (!event) throw new Error('no event');
    expect(event.data.postings[1]).toEqual({
      account: 'platform:card-funding:USD',
      currency: 'USD',
      amount: 400,
      type: 'RETURN',
    });
    // A USD sale charged in USD: the card gets back what is returned.
    expect(event.type === 'SaleReturned' && event.data.cardRefund).toMatchObject({ amount: 400, currency: 'USD' });
    const pending = evolveTransaction(null, event, now);
    expect(pending).toMatchObject({ state: 'pending', paymentMethodId: '7', payeeWalletId: null });

    const confirm: LedgerCommand = { type: 'ConfirmCardRefund', txId: 'return-1', refundReference: 're_1' };
    const state = { tx: pending, wallets: new Map(), coins: [] } satisfies LedgerState;
    const [confirmed] = decide(confirm, state, context());
    if (!confirmed) throw new Error('no event');
    const done = evolveTransaction(pending, confirmed, now);
    expect(done).toMatchObject({ state: 'completed', reference: 're_1' });
    expect(refusalOf(confirm, { ...state, tx: done })).toBe('transaction_state_invalid');
    // A card-paid sale goes back to the card, and a wallet-paid one to the wallet, never the other way.
    expect(refusalOf(returning(), given(sale, 0, [wallet('merchant-1', 'USD', 5_000)]))).toBe(
      'payment_method_wrong_use',
    );
  });

  it('gives a price paid from coins back as coins, by cumulative share, through the exchange accounts', () => {
    // $4.75 paid with 95.00 coins (the buyer's CON wallet paid; the sale is in USD).
    const sale = evolveTransaction(
      null,
      {
        type: 'FundsTransferred',
        data: {
          txId: 'sale-1',
          kind: 'PURCHASE',
          fromWalletId: walletIdOf('user-1', 'CON'),
          fromOwnerId: 'user-1',
          toWalletId: walletIdOf('merchant-1', 'USD'),
          toOwnerId: 'merchant-1',
          amount: 4_75,
          fee: 0,
          currency: 'USD',
          hold: null,
          memo: null,
          postings: [],
          coins: [],
          paidFromCoins: { coins: 95_00, rateMicros: 1_000_000, quoteId: 'qt_1' },
        },
      },
      now,
    );
    const wallets = [wallet('merchant-1', 'USD', 4_75), wallet('user-1', 'CON', 0)];
    expect(refusalOf(returning({ amount: 1_00 }), given(sale, 0, wallets))).toBe('payment_method_wrong_use');

    let returned = 0;
    let coinsBack = 0;
    for (const [index, amount] of [1_00, 1, 3_74].entries()) {
      const [event] = decide(
        returning({ txId: `return-${String(index)}`, amount, coinsPaid: 95_00 }),
        given(sale, returned, wallets),
        context(),
      );
      if (event?.type !== 'SaleReturned') throw new Error('no return');
      const back = event.data.coinsBack ?? Number.NaN;
      // Each currency balances on its own; the buyer's CON wallet gets the minted coins.
      for (const currency of ['USD', 'CON'] as const)
        expect(
          event.data.postings.filter((posting) => posting.currency === currency).reduce((sum, p) => sum + p.amount, 0),
        ).toBe(0);
      expect(event.data.postings).toContainEqual({
        account: 'platform:exchange:USD',
        currency: 'USD',
        amount,
        type: 'RETURN',
      });
      expect(event.data.coins.reduce((sum, step) => sum + ('value' in step ? step.value : 0), 0)).toBe(back);
      expect(balanceChangesOf(event)).toContainEqual([walletIdOf('user-1', 'CON'), expect.anything()]);
      returned += amount;
      coinsBack += back;
    }
    // $1.00 is 20.00 coins, one cent 0.20, and the last return takes the remainder: all 95.00 back.
    expect(coinsBack).toBe(95_00);
  });

  it('given coins, moves serials back to the buyer, or burns them for a card refund', () => {
    const coins = [{ serial: 'C1', value: 1_000 }];
    const wallets = [wallet('merchant-1', 'CON', 1_000), wallet('user-1', 'CON', 0)];
    const [toWallet] = decide(returning(), given(saleOf(1_000, 'CON'), 0, wallets, coins), context());
    expect(toWallet?.data.coins.map((step) => step.action)).toEqual(['split', 'move']);
    const [toCard] = decide(
      returning({ cardCharge: { amount: 312, currency: 'USD' } }),
      given(saleOf(1_000, 'CON', true), 0, wallets, coins),
      context(),
    );
    expect(toCard?.data.coins.map((step) => step.action)).toEqual(['split', 'burn']);
  });

  it('never lets returns of a sale add up to more than the sale, whatever their amounts and order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: -5, max: 12_000 }), { maxLength: 30 }),
        (amount, asks) => {
          const sale = saleOf(amount, 'USD');
          let returned = 0;
          for (const [index, ask] of asks.entries()) {
            const state = given(sale, returned, [wallet('merchant-1', 'USD', 1_000_000), wallet('user-1', 'USD', 0)]);
            try {
              const [event] = decide(returning({ txId: `r${index}`, amount: ask }), state, context());
              returned += event && event.type === 'SaleReturned' ? event.data.amount : 0;
            } catch (error) {
              if (!(error instanceof LedgerRuleViolation)) throw error;
              expect(ask > leftToReturn({ record: sale, returned }) || ask <= 0).toBe(true);
            }
            expect(returned).toBeLessThanOrEqual(amount);
          }
        },
      ),
    );
  });
});

describe('the card refund of a return of a coin sale (issue 33)', () => {
  // 3,000 coins charged 193 cents, as the probe's checkout was.
  const coinSale = saleOf(3_000, 'CON', true);
  const charge = { amount: 193, currency: 'USD' as const };
  const merchantCoins = [{ serial: 'C1', value: 3_000 }];
  const returnOf = (
    returned: number,
    amount: number,
    txId = 'return-1',
    refunded = cardRefundedBy(charge.amount, 3_000, returned),
  ) => {
    // Unless told otherwise, every return before got its share.
    const state = given(coinSale, returned, [wallet('merchant-1', 'CON', 3_000 - returned)], merchantCoins, refunded);
    const [event] = decide(returning({ txId, amount, cardCharge: charge }), state, context());
    if (event?.type !== 'SaleReturned' || !event.data.cardRefund) throw new Error('no card return');
    return { event, refund: event.data.cardRefund.amount };
  };

  it('is the share of the charge by the returns so far: under a cent accrues, the last return takes the rest', () => {
    const oneCoin = returnOf(0, 1);
    expect(oneCoin.refund).toBe(0);
    // Nothing to wait for from the processor: done at once, still a card return.
    expect(evolveTransaction(null, oneCoin.event, now)).toMatchObject({ state: 'completed', paymentMethodId: '7' });
    // The 16th coin crosses a cent: 16 × 193 / 3,000 = 1.03.
    expect(returnOf(15, 1).refund).toBe(1);
    expect([returnOf(0, 1_000).refund, returnOf(1_000, 1_000).refund, returnOf(2_000, 1_000).refund]).toEqual([
      64, 64, 65,
    ]);
    expect(evolveTransaction(null, returnOf(2_000, 1_000).event, now).state).toBe('pending');
  });

  it('never adds up to more than the charge, and to all of it once the sale is all returned, in any sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 1, maxLength: 40 }), (asks) => {
        let returned = 0;
        let refunded = 0;
        for (const [index, ask] of asks.entries()) {
          const amount = index === asks.length - 1 ? 3_000 - returned : Math.min(ask, 3_000 - returned);
          if (amount === 0) break;
          refunded += returnOf(returned, amount, `r${index}`).refund;
          returned += amount;
          expect(refunded).toBeLessThanOrEqual(charge.amount);
        }
        expect(returned).toBe(3_000);
        expect(refunded).toBe(charge.amount);
      }),
    );
  });

  it("asks again for a failed return's share, and for no more than the charge, however returns and failures interleave", () => {
    // 10 coins (0.64 cents) return, then 6 cross a cent and get it; the 10 fail: 6 coins stand, refunded 1.
    expect(returnOf(0, 10).refund).toBe(0);
    expect(returnOf(10, 6, 'return-2').refund).toBe(1);
    // The rest of the sale owes what the charge has left: 192, not 193 (the share of the returns before, 0, would say 193).
    expect(returnOf(6, 2_994, 'return-3', 1).refund).toBe(192);
    // A failed 1,000 whose 64 was never paid: returning those coins again asks for their share again.
    expect(returnOf(1_000, 1_000, 'return-4', 64).refund).toBe(64);
  });

  it('gives a refused refund back to the merchant in new coins, against card funding, and ends the return failed', () => {
    const { event } = returnOf(0, 1_000);
    const pending = evolveTransaction(null, event, now);
    const fail: LedgerCommand = { type: 'FailCardRefund', txId: 'return-1', reason: 'Only 0 of the charge is left' };
    expect(needsOf(fail, pending).wallets).toEqual([walletIdOf('merchant-1', 'CON')]);
    const state = { tx: pending, wallets: new Map(), coins: [] } satisfies LedgerState;
    const [failed] = decide(fail, state, context());
    if (failed?.type !== 'CardRefundFailed') throw new Error('no failure');
    expect(failed.data.postings).toEqual([
      { account: 'platform:card-funding:CON', currency: 'CON', amount: -1_000, type: 'RETURN' },
      { account: 'wallet:merchant-1:CON', currency: 'CON', amount: 1_000, type: 'RETURN' },
    ]);
    expect(failed.data.coins).toEqual([{ action: 'mint', serial: 'S1', value: 1_000, to: 'wallet:merchant-1:CON' }]);
    // Spendable again, but not cash: the card may have had its money back another way.
    expect(balanceChangesOf(failed)).toEqual([
      ['wallet:merchant-1:CON', { total: 1_000, available: 1_000, withdrawable: 0, reserved: 0 }],
    ]);
    const done = evolveTransaction(pending, failed, now);
    expect(done).toMatchObject({ state: 'failed', reason: 'cold coffee' });
    // The failed return no longer stands: its amount comes off the sale, which the merchant may return again.
    expect(saleReturnOf(failed, done)).toEqual({ saleTxId: 'sale-1', amount: -1_000, made: false });
    // Once, and only a pending card return.
    expect(refusalOf(fail, { ...state, tx: done })).toBe('transaction_state_invalid');
    const confirm: LedgerCommand = { type: 'ConfirmCardRefund', txId: 'return-1', refundReference: 're_1' };
    expect(refusalOf(confirm, { ...state, tx: done })).toBe('transaction_state_invalid');
  });
});
