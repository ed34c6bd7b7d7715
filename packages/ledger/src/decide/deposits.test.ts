import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { platformAccount, walletIdOf } from '../accounts.ts';
import type { LedgerCommand } from '../commands.ts';
import { LedgerRuleViolation } from '../errors.ts';
import type { DepositMethod, Posting, TransactionEvent } from '../events.ts';
import type { Currency } from '../money.ts';
import { evolveTransaction, type TransactionRecord } from '../transaction.ts';
import { decide, type LedgerState, type WalletState } from './index.ts';

const now = new Date('2026-11-28T12:00:00Z');
const context = () => {
  let next = 0;
  return { now, newSerial: () => `S${++next}`, holdHours: 24, cardFundsHoldHours: 168 };
};
const coinWallet = (ownerId: string): WalletState => ({
  walletId: walletIdOf(ownerId, 'CON'),
  ownerId,
  currency: 'CON',
  status: 'open',
  total: 0,
  available: 0,
  withdrawable: 0,
  reserved: 0,
});
const state = (tx: TransactionRecord | null = null): LedgerState => ({
  tx,
  wallets: new Map([[walletIdOf('ann', 'CON'), coinWallet('ann')]]),
  coins: [],
});
const only = (events: TransactionEvent[]) => {
  const [event] = events;
  if (!event || events.length !== 1) throw new Error(`expected one event, got ${events.length}`);
  return event;
};
const refusalOf = (command: LedgerCommand, given: LedgerState) => {
  try {
    decide(command, given, context());
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};
const sumsByCurrency = (postings: readonly Posting[]) => {
  const sums: Partial<Record<Currency, number>> = {};
  for (const posting of postings) sums[posting.currency] = (sums[posting.currency] ?? 0) + posting.amount;
  return sums;
};
const enter = (method: DepositMethod, amount: number, currency: Currency, rateMicros: number, txId = 'd-1') =>
  ({
    type: 'EnterDeposit',
    txId,
    ownerId: 'ann',
    method,
    payment: { amount, currency },
    rateMicros,
    reference: `ref-${txId}`,
    expiresAt: method === 'bitcoin' ? '2026-11-29T12:00:00.000Z' : null,
    quoteId: `qt_${txId}`,
  }) satisfies LedgerCommand;

/** A deposit entered and then cleared, as the store would decide the two. */
function enterAndClear(command: ReturnType<typeof enter>) {
  const entered = only(decide(command, state(), context()));
  const tx = evolveTransaction(null, entered, now);
  const cleared = only(decide({ type: 'ClearDeposit', txId: command.txId, clearedBy: 'ops' }, state(tx), context()));
  return { entered, tx, cleared };
}

const fundingOf = (method: DepositMethod) => (method === 'bitcoin' ? 'bitcoin-funding' : 'email-transfer-funding');

describe('A deposit cleared, a conversion', () => {
  it('posts $25 USD of Zelle through the exchange accounts: 500 coins, each currency balancing on its own', () => {
    const { entered, cleared } = enterAndClear(enter('zelle', 25_00, 'USD', 1_000_000));
    expect(entered.data.postings).toEqual([]);
    if (entered.type !== 'DepositEntered') throw new Error('expected DepositEntered');
    expect(entered.data.quoteId).toBe('qt_d-1');
    if (cleared.type !== 'DepositCleared') throw new Error('expected DepositCleared');
    expect(cleared.data.payment).toEqual({ amount: 25_00, currency: 'USD' });
    expect(cleared.data.postings.map((posting) => [posting.account, posting.currency, posting.amount])).toEqual([
      ['platform:email-transfer-funding:USD', 'USD', -25_00],
      ['platform:exchange:USD', 'USD', 25_00],
      ['platform:exchange:CON', 'CON', -500_00],
      ['wallet:ann:CON', 'CON', 500_00],
    ]);
    expect(cleared.data.coins).toEqual([{ action: 'mint', serial: 'S1', value: 500_00, to: 'wallet:ann:CON' }]);
  });

  it('clears any deposit with each currency summing to zero and the exchange holding the cash against the coins', () => {
    const deposit = fc.record({
      method: fc.constantFrom<DepositMethod>('interac', 'zelle', 'bitcoin'),
      dollars: fc.integer({ min: 1, max: 500 }),
      rateMicros: fc.integer({ min: 500_000, max: 1_500_000 }),
    });
    fc.assert(
      fc.property(fc.array(deposit, { minLength: 1, maxLength: 12 }), (deposits) => {
        const positions = new Map<string, number>();
        const expected = new Map<string, number>();
        const add = (map: Map<string, number>, key: string, amount: number) =>
          map.set(key, (map.get(key) ?? 0) + amount);
        deposits.forEach(({ method, dollars, rateMicros }, index) => {
          const currency: Currency = method === 'interac' ? 'CAD' : 'USD';
          const { entered, cleared } = enterAndClear(
            enter(method, dollars * 100, currency, currency === 'USD' ? 1_000_000 : rateMicros, `d-${index}`),
          );
          if (entered.type !== 'DepositEntered') throw new Error('expected DepositEntered');
          const sums = sumsByCurrency(cleared.data.postings);
          expect(sums).toEqual({ [currency]: 0, CON: 0 });
          // Coins are minted from the exchange, never from a funding account's coins.
          expect(cleared.data.postings.some((p) => p.account === platformAccount(fundingOf(method), 'CON'))).toBe(
            false,
          );
          for (const posting of cleared.data.postings)
            if (posting.account.startsWith('platform:exchange:')) add(positions, posting.account, posting.amount);
          add(expected, platformAccount('exchange', currency), dollars * 100);
          add(expected, platformAccount('exchange', 'CON'), -entered.data.amount);
          const minted = cleared.data.coins.reduce((total, coin) => total + ('value' in coin ? coin.value : 0), 0);
          expect(minted).toBe(entered.data.amount);
        });
        expect(positions).toEqual(expected);
      }),
    );
  });

  it('posts nothing when a deposit is rejected or expires, and clears a deposit once', () => {
    const entered = only(decide(enter('bitcoin', 10_00, 'USD', 1_000_000), state(), context()));
    const tx = evolveTransaction(null, entered, now);
    const rejected = only(
      decide({ type: 'RejectDeposit', txId: 'd-1', reason: 'no transfer', rejectedBy: 'ops' }, state(tx), context()),
    );
    expect(rejected.data.postings).toEqual([]);
    const expired = only(
      decide({ type: 'ExpireDeposit', txId: 'd-1' }, state(tx), {
        ...context(),
        now: new Date('2026-11-29T12:00:00.000Z'),
      }),
    );
    expect(expired.data.postings).toEqual([]);

    const cleared = only(decide({ type: 'ClearDeposit', txId: 'd-1', clearedBy: 'ops' }, state(tx), context()));
    const after = evolveTransaction(tx, cleared, now);
    expect(refusalOf({ type: 'ClearDeposit', txId: 'd-1', clearedBy: 'ops' }, state(after))).toBe(
      'transaction_state_invalid',
    );
  });

  it('keeps the cash on the transaction record, for the clearing to convert', () => {
    const entered = only(decide(enter('interac', 40_00, 'CAD', 780_000), state(), context()));
    expect(evolveTransaction(null, entered, now).payment).toEqual({ amount: 40_00, currency: 'CAD' });
  });
});

describe('A flagged bitcoin payment credited', () => {
  const credit = (fields: Partial<Extract<LedgerCommand, { type: 'CreditBitcoinPayment' }>> = {}): LedgerCommand => ({
    type: 'CreditBitcoinPayment',
    txId: 'd-1-credit',
    depositTxId: 'd-1',
    ownerId: 'ann',
    sats: 12_000,
    coins: 150_00,
    creditedBy: 'ops',
    ...fields,
  });

  it('converts the dollars its satoshis were quoted at through the exchange accounts', () => {
    const event = only(decide(credit({ payment: { amount: 7_50, currency: 'USD' } }), state(), context()));
    if (event.type !== 'BitcoinPaymentCredited') throw new Error('expected BitcoinPaymentCredited');
    expect(event.data.payment).toEqual({ amount: 7_50, currency: 'USD' });
    expect(event.data.postings.map((posting) => [posting.account, posting.currency, posting.amount])).toEqual([
      ['platform:bitcoin-funding:USD', 'USD', -7_50],
      ['platform:exchange:USD', 'USD', 7_50],
      ['platform:exchange:CON', 'CON', -150_00],
      ['wallet:ann:CON', 'CON', 150_00],
    ]);
    expect(sumsByCurrency(event.data.postings)).toEqual({ USD: 0, CON: 0 });
    expect(evolveTransaction(null, event, now).payment).toEqual({ amount: 7_50, currency: 'USD' });
  });

  it('mints from the bitcoin-funding coins without a dollar value, and refuses a payment that is not cash', () => {
    const event = only(decide(credit(), state(), context()));
    expect(event.data.postings.map((posting) => [posting.account, posting.amount])).toEqual([
      ['wallet:ann:CON', 150_00],
      ['platform:bitcoin-funding:CON', -150_00],
    ]);
    expect(refusalOf(credit({ payment: { amount: 0, currency: 'USD' } }), state())).toBe('amount_not_positive');
    expect(refusalOf(credit({ payment: { amount: 100, currency: 'CON' } }), state())).toBe('currency_mismatch');
  });
});
