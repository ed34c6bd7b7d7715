import { describe, expect, it } from 'vitest';
import { walletIdOf } from '../accounts.ts';
import type { Coin } from '../coins.ts';
import type { LedgerCommand } from '../commands.ts';
import { LedgerRuleViolation } from '../errors.ts';
import { coinChangesOf } from '../projection.ts';
import { decide, needsOf, type DecideContext, type LedgerState, type WalletState } from './index.ts';

const bought = new Date('2026-11-21T12:00:00Z');
const matures = '2026-11-28T12:00:00.000Z';
const HOUR = 3_600_000;
const at = (now: Date): DecideContext => {
  let next = 0;
  return { now, newSerial: () => `S${++next}`, holdHours: 24, cardFundsHoldHours: 168 };
};
const wallet = (ownerId: string, available: number, withdrawable = available): WalletState => ({
  walletId: walletIdOf(ownerId, 'CON'),
  ownerId,
  currency: 'CON',
  status: 'open',
  total: available,
  available,
  withdrawable,
  reserved: 0,
});
const given = (wallets: WalletState[], coins: Coin[] = []): LedgerState => ({
  tx: null,
  wallets: new Map(wallets.map((entry) => [entry.walletId, entry])),
  coins,
});
const withdraw = (ownerId: string, amount: number): LedgerCommand => ({
  type: 'RequestWithdrawal',
  txId: 'w-1',
  ownerId,
  amount,
  currency: 'CON',
  destination: { kind: 'bank', paymentMethodId: 'pm' },
});
const refusalOf = (command: LedgerCommand, state: LedgerState, context: DecideContext) => {
  try {
    decide(command, state, context);
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return { code: error.code, from: error.from };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('coins bought by card', () => {
  it('are minted with their maturity: the purchase time plus the card funds hold', () => {
    const [event] = decide(
      {
        type: 'PurchaseCoins',
        txId: 'p-1',
        ownerId: 'ann',
        charge: { amount: 1000, currency: 'USD' },
        rateMicros: 1_000_000,
        paymentMethod: { id: 'pm', type: 'CC' },
      },
      given([wallet('ann', 0)]),
      at(bought),
    );
    expect(event?.data.coins).toEqual([
      { action: 'mint', serial: 'S1', value: 20_000, to: 'wallet:ann:CON', maturesAt: matures },
    ]);
    expect(coinChangesOf('p-1', event?.data.coins ?? []).created[0]?.maturesAt).toBe(matures);
  });

  it('mature at once with no card funds hold', () => {
    const [event] = decide(
      {
        type: 'PurchaseCoins',
        txId: 'p-1',
        ownerId: 'ann',
        charge: { amount: 1000, currency: 'USD' },
        rateMicros: 1_000_000,
        paymentMethod: { id: 'pm', type: 'CC' },
      },
      given([wallet('ann', 0)]),
      { ...at(bought), cardFundsHoldHours: 0 },
    );
    expect(event?.data.coins).toEqual([{ action: 'mint', serial: 'S1', value: 20_000, to: 'wallet:ann:CON' }]);
  });

  it('cannot be withdrawn as cash before they mature, and the refusal says from when', () => {
    const state = given([wallet('ann', 500)], [{ serial: 'C', value: 500, maturesAt: matures }]);
    expect(refusalOf(withdraw('ann', 300), state, at(new Date(bought.getTime() + HOUR)))).toEqual({
      code: 'card_funds_maturing',
      from: matures,
    });
  });

  it('can be withdrawn as cash once they mature', () => {
    const state = given([wallet('ann', 500)], [{ serial: 'C', value: 500, maturesAt: matures }]);
    const [event] = decide(withdraw('ann', 300), state, at(new Date(matures)));
    expect(event?.type).toBe('WithdrawalRequested');
    expect(event?.data.coins.filter((step) => step.action === 'reserve').map((step) => step.value)).toEqual([300]);
  });

  it('a cash-out reserves only matured coins, even when a larger coin bought by card comes first', () => {
    const state = given(
      [wallet('ann', 900)],
      [
        { serial: 'C', value: 600, maturesAt: matures },
        { serial: 'O', value: 300 },
      ],
    );
    const [event] = decide(withdraw('ann', 200), state, at(bought));
    const steps = event?.data.coins ?? [];
    expect(steps.find((step) => step.action === 'split')?.serial).toBe('O');
    expect(steps.filter((step) => step.action === 'reserve')).toEqual([
      { action: 'reserve', serial: 'S1', value: 200, holder: 'wallet:ann:CON' },
    ]);
    // Enough coins bought by card to cover it, but only 300 matured: 400 is refused until they mature.
    expect(refusalOf(withdraw('ann', 400), state, at(bought)).code).toBe('card_funds_maturing');
  });

  it('can be spent inside the wallet at once, and what is sent and the change keep the maturity', () => {
    const state = given([wallet('ann', 500), wallet('ben', 0)], [{ serial: 'C', value: 500, maturesAt: matures }]);
    const [event] = decide(
      {
        type: 'Transfer',
        txId: 't-1',
        kind: 'P2P',
        fromOwnerId: 'ann',
        toOwnerId: 'ben',
        amount: 200,
        fee: 0,
        currency: 'CON',
        memo: null,
      },
      state,
      at(bought),
    );
    expect(event?.data.coins).toEqual([
      {
        action: 'split',
        serial: 'C',
        value: 500,
        holder: 'wallet:ann:CON',
        into: [
          { serial: 'S1', value: 200, maturesAt: matures },
          { serial: 'S2', value: 300, maturesAt: matures },
        ],
      },
      { action: 'move', serial: 'S1', value: 200, maturesAt: matures, from: 'wallet:ann:CON', to: 'wallet:ben:CON' },
    ]);
    expect(
      coinChangesOf('t-1', event?.data.coins ?? []).created.map((row) => [row.serial, row.holder, row.maturesAt]),
    ).toEqual([
      ['S1', 'wallet:ben:CON', matures],
      ['S2', 'wallet:ann:CON', matures],
    ]);
  });

  it('sent to another wallet, still cannot be withdrawn as cash by the receiver before they mature', () => {
    const afterHold = new Date(bought.getTime() + 48 * HOUR);
    const state = given([wallet('ben', 200)], [{ serial: 'S1', value: 200, maturesAt: matures }]);
    expect(refusalOf(withdraw('ben', 200), state, at(afterHold)).code).toBe('card_funds_maturing');
    expect(decide(withdraw('ben', 200), state, at(new Date(matures)))[0]?.type).toBe('WithdrawalRequested');
  });

  it("are left out of a merchant's settlement until they mature", () => {
    const settle = (amount: number): LedgerCommand => ({
      type: 'SettleMerchantBatch',
      txId: 's-1',
      merchantId: 'tea',
      batchId: 'tea:CON:2026-11-22',
      amount,
      fee: 0,
      currency: 'CON',
    });
    const state = given(
      [wallet('tea', 500)],
      [
        { serial: 'C', value: 300, maturesAt: matures },
        { serial: 'O', value: 200 },
      ],
    );
    expect(refusalOf(settle(500), state, at(bought)).code).toBe('card_funds_maturing');
    const [event] = decide(settle(200), state, at(bought));
    expect(event?.data.coins.map((step) => [step.action, step.serial])).toEqual([['move', 'O']]);
    expect(decide(settle(500), state, at(new Date(matures)))[0]?.type).toBe('MerchantBatchSettled');
  });

  it('a withdrawal asks for coins that cover it matured; a send for any coins', () => {
    expect(needsOf(withdraw('ann', 300), null).coins).toEqual({
      walletId: 'wallet:ann:CON',
      amount: 300,
      cashOut: true,
    });
    expect(
      needsOf(
        {
          type: 'Transfer',
          txId: 't-1',
          kind: 'P2P',
          fromOwnerId: 'ann',
          toOwnerId: 'ben',
          amount: 200,
          fee: 0,
          currency: 'CON',
          memo: null,
        },
        null,
      ).coins,
    ).toEqual({ walletId: 'wallet:ann:CON', amount: 200 });
  });
});
