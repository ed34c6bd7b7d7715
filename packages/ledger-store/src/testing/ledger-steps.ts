import type { Currency, DepositMethod } from '@peeks/ledger';
import fc from 'fast-check';

interface LedgerStepOptions {
  /** Owners are numbered 0 … owners - 1. */
  owners: number;
  currency: fc.Arbitrary<Currency>;
  /** Amounts of transfers, withdrawals, returns and fees. */
  amount: fc.Arbitrary<number>;
  /** What a card purchase or a deposit pays, in cash. */
  cash: fc.Arbitrary<number>;
}

type FollowUp =
  | 'clearDeposit'
  | 'rejectDeposit'
  | 'expireDeposit'
  | 'releaseHold'
  | 'processWithdrawal'
  | 'failWithdrawal'
  | 'confirmCardRefund'
  | 'failCardRefund'
  | 'retry';

/**
 * The steps of the ledger's property tests (ledger.property.test.ts, and
 * the API's history rows): each a command to build, or the clock to move.
 * A follow-up picks one of the run's earlier transactions by index, so the
 * generator stays independent of what the ledger decided. Each test
 * weighs these as it needs and adds its own kinds.
 */
export function ledgerSteps({ owners, currency, amount, cash }: LedgerStepOptions) {
  const owner = fc.integer({ min: 0, max: owners - 1 });
  const pick = fc.nat();
  return {
    owner,
    pick,
    amount,
    purchase: fc.record({ kind: fc.constant('purchase' as const), owner, cash }),
    cardDeposit: (paid: fc.Arbitrary<Currency> = currency) =>
      fc.record({ kind: fc.constant('cardDeposit' as const), owner, amount, currency: paid }),
    enterDeposit: fc.record({
      kind: fc.constant('enterDeposit' as const),
      owner,
      cash,
      method: fc.constantFrom<DepositMethod>('interac', 'zelle', 'bitcoin'),
    }),
    /** One of `kinds`, of an earlier transaction. */
    followUp: <Kind extends FollowUp>(...kinds: [Kind, ...Kind[]]) =>
      fc.record({ kind: fc.constantFrom(...kinds), pick }),
    returnSale: fc.record({ kind: fc.constant('returnSale' as const), pick, amount }),
    withdraw: fc.record({
      kind: fc.constant('withdraw' as const),
      owner,
      amount,
      currency,
      destination: fc.constantFrom('card' as const, 'bank' as const),
    }),
    settle: fc.record({
      kind: fc.constant('settle' as const),
      owner,
      amount: fc.integer({ min: 1, max: 20_000 }),
      fee: fc.integer({ min: 0, max: 500 }),
      currency,
    }),
    fee: fc.record({ kind: fc.constant('fee' as const), owner, amount, currency }),
    correct: fc.record({
      kind: fc.constant('correct' as const),
      owner,
      amount: fc.integer({ min: -5_000, max: 5_000 }),
      currency,
    }),
    advanceClock: fc.record({ kind: fc.constant('advanceClock' as const), hours: fc.integer({ min: 1, max: 48 }) }),
  };
}
