import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import {
  DEFAULT_RATE_MICROS,
  LedgerRuleViolation,
  RATE_SCALE,
  cashPriceOfCoins,
  type Cash,
  type CardFunding,
  type Currency,
  type LedgerCommand,
  type TransactionRecord,
} from '@peeks/ledger';
import { executeLedgerCommand, openWallets } from '@peeks/ledger-store';
import { ledgerSteps } from '@peeks/ledger-store/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentTransactions } from '../payments/index.ts';
import { balanceNow, ledgerPage, transactionPage } from './queries.ts';

/**
 * The reconciliation property (issue 35, item 4): over random histories of
 * every kind of row, each person's history rows, and their ledger list,
 * add up to their balance in every currency.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 2 });
});
afterAll(() => database.drop());

const OWNERS = 4;
/** Owner 3 is the shop: checkout and QR payments go to it, and it settles. */
const SHOP = 3;
const currency = fc.constantFrom<Currency>('CON', 'CON', 'USD', 'CAD');
const steps = ledgerSteps({
  owners: OWNERS,
  currency,
  amount: fc.integer({ min: 1, max: 40_000 }),
  cash: fc.integer({ min: 100, max: 50_000 }),
});
const { owner, amount, pick } = steps;
const cashCurrency = fc.constantFrom<Currency>('USD', 'CAD');

const step = fc.oneof(
  steps.purchase,
  steps.cardDeposit(cashCurrency),
  steps.enterDeposit,
  fc.record({ kind: fc.constant('creditBitcoin' as const), owner, cents: fc.integer({ min: 1, max: 50_000 }), pick }),
  steps.followUp('clearDeposit', 'rejectDeposit', 'expireDeposit'),
  fc.record({
    kind: fc.constant('send' as const),
    from: owner,
    to: owner,
    amount,
    currency,
    byCard: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('pay' as const), from: owner, amount, currency, byCard: fc.boolean() }),
  fc.record({ kind: fc.constant('payFromCoins' as const), from: owner, amount, currency: cashCurrency }),
  steps.advanceClock,
  steps.followUp('releaseHold'),
  steps.withdraw,
  steps.followUp('processWithdrawal', 'failWithdrawal'),
  steps.returnSale,
  steps.followUp('confirmCardRefund', 'failCardRefund'),
  steps.correct,
  steps.settle,
  steps.fee,
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** A history that reaches every kind of row at least once. */
const everyKindOnce: Step[] = [
  { kind: 'purchase', owner: 0, cash: 10_000 },
  { kind: 'cardDeposit', owner: 1, amount: 5_000, currency: 'USD' },
  { kind: 'enterDeposit', owner: 2, cash: 2_000, method: 'interac' },
  { kind: 'enterDeposit', owner: 2, cash: 3_000, method: 'zelle' },
  { kind: 'enterDeposit', owner: 1, cash: 4_000, method: 'bitcoin' },
  { kind: 'enterDeposit', owner: 0, cash: 1_500, method: 'bitcoin' },
  { kind: 'clearDeposit', pick: 0 },
  { kind: 'rejectDeposit', pick: 1 },
  { kind: 'clearDeposit', pick: 3 },
  { kind: 'creditBitcoin', owner: 1, cents: 700, pick: 2 },
  { kind: 'send', from: 0, to: 1, amount: 1_500, currency: 'CON', byCard: false },
  { kind: 'send', from: 0, to: 2, amount: 1_500, currency: 'CON', byCard: true },
  { kind: 'pay', from: 1, amount: 2_500, currency: 'USD', byCard: false },
  { kind: 'pay', from: 0, amount: 3_550, currency: 'USD', byCard: true },
  { kind: 'pay', from: 0, amount: 1_000, currency: 'CON', byCard: false },
  { kind: 'advanceClock', hours: 25 },
  // The bitcoin deposit nobody paid expires a day on.
  { kind: 'expireDeposit', pick: 2 },
  { kind: 'releaseHold', pick: 0 },
  { kind: 'returnSale', pick: 0, amount: 500 },
  { kind: 'returnSale', pick: 1, amount: 1_000 },
  { kind: 'confirmCardRefund', pick: 0 },
  { kind: 'returnSale', pick: 1, amount: 500 },
  { kind: 'failCardRefund', pick: 1 },
  // A shop's dollar price paid from coins: the row is the payer's coins, the shop's is dollars.
  { kind: 'payFromCoins', from: 2, amount: 4_75, currency: 'USD' },
  { kind: 'payFromCoins', from: 1, amount: 4_75, currency: 'CAD' },
  // Coins from a cleared deposit: ones bought by card cannot be cashed out until they mature.
  { kind: 'withdraw', owner: 2, amount: 500, currency: 'CON', destination: 'card' },
  { kind: 'withdraw', owner: 1, amount: 500, currency: 'USD', destination: 'card' },
  { kind: 'processWithdrawal', pick: 0 },
  { kind: 'failWithdrawal', pick: 1 },
  { kind: 'correct', owner: 2, amount: -100, currency: 'CON' },
  { kind: 'settle', owner: SHOP, amount: 1_000, fee: 0, currency: 'USD' },
  { kind: 'fee', owner: 1, amount: 100, currency: 'USD' },
];

/** What a card is charged for a payment: the payment in cash, or the cash price of coins in USD. */
function cardCharge(total: number, paid: Currency): CardFunding {
  const paymentMethod = { id: 'card', type: 'CC' };
  return paid === 'CON'
    ? {
        paymentMethod,
        charge: { amount: cashPriceOfCoins(total, 'USD', DEFAULT_RATE_MICROS), currency: 'USD' },
        rateMicros: DEFAULT_RATE_MICROS,
      }
    : { paymentMethod, charge: { amount: total, currency: paid }, rateMicros: null };
}

const appliedKinds = new Set<string>();
let run = 0;

async function runHistory(steps: Step[]) {
  run += 1;
  const ownerId = (index: number) => `history${String(run)}-owner${String(index)}`;
  for (let index = 0; index < OWNERS; index++) await openWallets(database.db, ownerId(index));
  let clock = new Date('2026-01-01T00:00:00Z');
  const settings = { holdHours: 24, now: () => clock };
  let txNumber = 0;
  const nextTxId = () => `history${String(run)}-tx${String(++txNumber)}`;
  const made = {
    deposits: [] as string[],
    held: [] as string[],
    withdrawals: [] as string[],
    cardReturns: [] as string[],
  };
  const sales: { txId: string; charge: Cash | null }[] = [];
  const among = (list: string[], index: number) => list[index % Math.max(list.length, 1)] ?? 'none';

  const commandFor = (item: Step): LedgerCommand | null => {
    switch (item.kind) {
      case 'purchase':
        return {
          type: 'PurchaseCoins',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          charge: { amount: item.cash, currency: 'USD' },
          rateMicros: DEFAULT_RATE_MICROS,
          paymentMethod: { id: 'card', type: 'CC' },
        };
      case 'cardDeposit':
        return {
          type: 'DepositByCard',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          paymentMethod: { id: 'card', type: 'CC' },
        };
      case 'enterDeposit': {
        // Interac moves Canadian dollars; Zelle and bitcoin, US dollars. A bitcoin address is good for a day.
        const txId = nextTxId();
        return {
          type: 'EnterDeposit',
          txId,
          ownerId: ownerId(item.owner),
          method: item.method,
          payment: { amount: item.cash, currency: item.method === 'interac' ? 'CAD' : 'USD' },
          rateMicros: item.method === 'interac' ? DEFAULT_RATE_MICROS : 1_000_000,
          reference: `memo-${String(txNumber)}`,
          expiresAt: item.method === 'bitcoin' ? new Date(clock.getTime() + 24 * 3_600_000).toISOString() : null,
          quoteId: `qt-${txId}`,
        };
      }
      case 'creditBitcoin':
        // An operator credits satoshis a flagged deposit received: 20 coins a dollar.
        return {
          type: 'CreditBitcoinPayment',
          txId: nextTxId(),
          depositTxId: among(made.deposits, item.pick),
          ownerId: ownerId(item.owner),
          sats: item.cents * 200,
          coins: item.cents * 20,
          creditedBy: 'ops',
          payment: { amount: item.cents, currency: 'USD' },
        };
      case 'clearDeposit':
        return { type: 'ClearDeposit', txId: among(made.deposits, item.pick), clearedBy: 'ops' };
      case 'rejectDeposit':
        return { type: 'RejectDeposit', txId: among(made.deposits, item.pick), reason: 'none came', rejectedBy: 'ops' };
      case 'expireDeposit':
        return { type: 'ExpireDeposit', txId: among(made.deposits, item.pick) };
      case 'send':
      case 'pay': {
        const to = item.kind === 'pay' ? SHOP : item.to;
        return {
          type: 'Transfer',
          txId: nextTxId(),
          kind: item.kind === 'pay' ? 'PURCHASE' : 'P2P',
          fromOwnerId: ownerId(item.from),
          toOwnerId: ownerId(to),
          amount: item.amount,
          fee: 0,
          currency: item.currency,
          memo: null,
          ...(item.byCard ? { fundedBy: cardCharge(item.amount, item.currency) } : {}),
        };
      }
      case 'payFromCoins': {
        const rateMicros = item.currency === 'USD' ? RATE_SCALE : DEFAULT_RATE_MICROS;
        return {
          type: 'Transfer',
          txId: nextTxId(),
          kind: 'PURCHASE',
          fromOwnerId: ownerId(item.from),
          toOwnerId: ownerId(SHOP),
          amount: item.amount,
          fee: 0,
          currency: item.currency,
          memo: null,
          // The fewest coins that sell for the price: hundredths of a coin, 20 coins a dollar at the rate.
          paidFromCoins: { coins: Math.ceil((item.amount * 20 * rateMicros) / RATE_SCALE), rateMicros, quoteId: 'qt' },
        };
      }
      case 'advanceClock':
        return null;
      case 'releaseHold':
        return { type: 'ReleaseHold', txId: among(made.held, item.pick) };
      case 'withdraw':
        return {
          type: 'RequestWithdrawal',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          // To the card: a person's rows are the subject here, not where the money goes.
          destination: { kind: 'card', paymentMethodId: 'card' },
        };
      case 'processWithdrawal':
        return { type: 'ProcessWithdrawal', txId: among(made.withdrawals, item.pick), payoutReference: 'payout' };
      case 'failWithdrawal':
        return { type: 'FailWithdrawal', txId: among(made.withdrawals, item.pick), reason: 'declined' };
      case 'returnSale': {
        const sale = sales[item.pick % Math.max(sales.length, 1)];
        if (!sale) return null;
        return {
          type: 'ReturnSale',
          txId: nextTxId(),
          saleTxId: sale.txId,
          merchantOwnerId: ownerId(SHOP),
          amount: item.amount,
          reason: 'wrong size',
          cardCharge: sale.charge,
        };
      }
      case 'confirmCardRefund':
        return { type: 'ConfirmCardRefund', txId: among(made.cardReturns, item.pick), refundReference: 'refund' };
      case 'failCardRefund':
        return { type: 'FailCardRefund', txId: among(made.cardReturns, item.pick), reason: 'refused' };
      case 'correct':
        return {
          type: 'CorrectBalance',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          reason: 'reconciliation',
          operatorId: 'finance',
        };
      case 'settle':
        return {
          // Only the shop settles, and without a fee, whichever owner and fee were drawn.
          type: 'SettleMerchantBatch',
          txId: nextTxId(),
          merchantId: ownerId(SHOP),
          batchId: `batch-${String(txNumber)}`,
          amount: item.amount,
          fee: 0,
          currency: item.currency,
        };
      case 'fee':
        return {
          type: 'ChargePlatformFee',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          reason: 'monthly fee',
        };
    }
  };

  for (const item of steps) {
    if (item.kind === 'advanceClock') clock = new Date(clock.getTime() + item.hours * 3_600_000);
    const command = commandFor(item);
    if (!command || (item.kind === 'send' && item.from === item.to)) continue;
    const outcome = await executeLedgerCommand(database.db, command, settings).catch((error: unknown) => {
      if (error instanceof LedgerRuleViolation) return null;
      throw error;
    });
    if (!outcome || outcome.replayed) continue;
    appliedKinds.add(item.kind);
    if (command.type === 'EnterDeposit') made.deposits.push(command.txId);
    if (command.type === 'Transfer' && outcome.record.holdAmount !== null) made.held.push(command.txId);
    if (command.type === 'Transfer' && command.kind === 'PURCHASE')
      sales.push({ txId: command.txId, charge: command.fundedBy?.charge ?? null });
    if (command.type === 'RequestWithdrawal') made.withdrawals.push(command.txId);
    if (command.type === 'ReturnSale' && command.cardCharge) made.cardReturns.push(command.txId);
  }

  for (let index = 0; index < OWNERS; index++) await expectReconciled(ownerId(index), clock);
}

const PAGE = 100;
const depositNetworks: Partial<Record<string, string>> = {
  interac: 'Interac e-Transfer',
  zelle: 'Zelle',
  bitcoin: 'Bitcoin',
};

/** Every row of `ownerId`'s history, as the API presents it, and every ledger entry: each adds up to the balance. */
async function expectReconciled(ownerId: string, now: Date) {
  const records: TransactionRecord[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await transactionPage(database.db, ownerId, { offset, limit: PAGE });
    records.push(...page.records);
    if (records.length >= page.total || page.records.length === 0) break;
  }
  const rows = await presentTransactions(database.db, ownerId, records);
  const entries = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await ledgerPage(database.db, ownerId, { offset, limit: PAGE });
    entries.push(...page.ledgers);
    if (entries.length >= page.total || page.ledgers.length === 0) break;
  }
  const balance = await balanceNow(database.db, ownerId, now);
  for (const line of balance.balances) {
    const rowSum = rows
      .filter((row) => row.currency === line.currency)
      .reduce((sum, row) => sum + row.wallet_change, 0);
    const ledgerSum = entries
      .filter((entry) => entry.currency === line.currency)
      .reduce((sum, entry) => sum + (entry.debit_credit === 'C' ? entry.amount : -entry.amount), 0);
    expect({ ownerId, currency: line.currency, rows: rowSum, ledger: ledgerSum }).toEqual({
      ownerId,
      currency: line.currency,
      rows: line.balance,
      ledger: line.balance,
    });
  }
  // A deposit's row names its network and its cash; one entered at a quote names the quote.
  for (const row of rows) {
    const network = depositNetworks[row.payment_method_type ?? ''];
    if (row.type !== 'deposit' || network === undefined) continue;
    expect(row.funding?.label).toBe(network);
    expect(row.quote?.to_currency).toBe('CON');
    if (row.state !== 'completed') expect(row.wallet_change).toBe(0);
    else expect(row.wallet_change).toBe(row.amount);
    if (!row.tx_id.endsWith('-credit') && row.reference?.startsWith('memo-'))
      expect(row.quote?.quote_id).toBe(`qt-${row.tx_id}`);
  }
  // What a card paid moved no wallet of the payer's.
  for (const row of rows)
    if (
      row.funding &&
      row.type !== 'purchase' &&
      row.type !== 'deposit' &&
      row.type !== 'withdraw' &&
      row.type !== 'return'
    )
      expect(row.wallet_change).toBe(0);
}

describe('history rows over random histories', () => {
  it("sum to each person's balance in every currency, as the ledger list does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        // Everyone starts with money in every currency, so spending is tried, not just refused.
        const funded: Step[] = Array.from({ length: OWNERS }, (_, index) => [
          { kind: 'purchase' as const, owner: index, cash: 200_00 },
          { kind: 'cardDeposit' as const, owner: index, amount: 100_00, currency: 'USD' as const },
          { kind: 'cardDeposit' as const, owner: index, amount: 100_00, currency: 'CAD' as const },
        ]).flat();
        await runHistory([...funded, ...steps]);
      }),
      { numRuns: 12, examples: [[everyKindOnce]] },
    );
    expect([...appliedKinds].sort()).toEqual(
      [
        'cardDeposit',
        'clearDeposit',
        'confirmCardRefund',
        'creditBitcoin',
        'correct',
        'enterDeposit',
        'expireDeposit',
        'failCardRefund',
        'failWithdrawal',
        'fee',
        'pay',
        'payFromCoins',
        'processWithdrawal',
        'purchase',
        'rejectDeposit',
        'releaseHold',
        'returnSale',
        'send',
        'settle',
        'withdraw',
      ].sort(),
    );
  }, 240_000);
});
