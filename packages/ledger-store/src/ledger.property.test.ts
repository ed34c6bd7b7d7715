import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import {
  DEFAULT_RATE_MICROS,
  LedgerRuleViolation,
  cashPriceOfCoins,
  withdrawableAsCash,
  type CardFunding,
  type Cash,
  type Currency,
  type LedgerCommand,
} from '@peeks/ledger';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { executeLedgerCommand } from './execute.ts';
import { catchUp, connectDatabase } from '@peeks/db';
import { groupCommitCounts } from './group-commit.ts';
import { platformBalances } from './platform-balances.ts';
import { verifyLedger } from './verify.ts';
import { ledgerSteps } from './testing/ledger-steps.ts';
import { closeWallet, openWallets } from './wallets.ts';

// Each generated sequence gets a database of its own, so its verify replays only its own log.
let database: TestDatabase;

/** Generated sequences of commands, valid and invalid, over a handful of owners (testing/ledger-steps.ts). */
const OWNERS = 5;
const currency = fc.constantFrom<Currency>('CON', 'CON', 'CON', 'USD', 'CAD', 'IMP');
const steps = ledgerSteps({
  owners: OWNERS,
  currency,
  amount: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 1, max: 60_000 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, -250, 1.5, 50_001, Number.MAX_SAFE_INTEGER) },
  ),
  cash: fc.integer({ min: 50, max: 60_000 }),
});
const { owner, amount } = steps;
const followUp = (kind: Parameters<typeof steps.followUp>[0]) => ({ weight: 2, arbitrary: steps.followUp(kind) });
const step = fc.oneof(
  { weight: 4, arbitrary: steps.purchase },
  { weight: 1, arbitrary: steps.cardDeposit() },
  { weight: 3, arbitrary: steps.enterDeposit },
  followUp('clearDeposit'),
  followUp('rejectDeposit'),
  followUp('expireDeposit'),
  followUp('releaseHold'),
  followUp('processWithdrawal'),
  followUp('failWithdrawal'),
  followUp('confirmCardRefund'),
  followUp('failCardRefund'),
  followUp('retry'),
  { weight: 3, arbitrary: steps.returnSale },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('transfer'),
      from: owner,
      to: owner,
      amount,
      fee: fc.constantFrom(0, 0, 0, 25),
      currency,
      transfer: fc.constantFrom('P2P', 'P2P', 'ACCT_TO_ACCT', 'PURCHASE'),
      // Paid by a card charge instead of the payer's wallet, some of the time.
      byCard: fc.constantFrom(false, false, true),
      // A USD or CAD amount paid from the payer's coins at a quote, some of the time.
      fromCoins: fc.constantFrom(false, false, true),
    }),
  },
  { weight: 3, arbitrary: steps.withdraw },
  { weight: 2, arbitrary: steps.settle },
  { weight: 1, arbitrary: steps.fee },
  { weight: 1, arbitrary: steps.correct },
  { weight: 3, arbitrary: steps.advanceClock },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close'), owner, currency }) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** A sequence in which every command succeeds at least once, run before the random ones. */
const everyCommandOnce: Step[] = [
  { kind: 'enterDeposit', owner: 0, cash: 100_00, method: 'bitcoin' },
  { kind: 'enterDeposit', owner: 1, cash: 100_00, method: 'interac' },
  { kind: 'enterDeposit', owner: 2, cash: 100_00, method: 'zelle' },
  { kind: 'clearDeposit', pick: 1 },
  { kind: 'rejectDeposit', pick: 2 },
  {
    kind: 'transfer',
    from: 0,
    to: 1,
    amount: 1_000,
    fee: 25,
    currency: 'CON',
    transfer: 'P2P',
    byCard: false,
    fromCoins: false,
  },
  {
    kind: 'transfer',
    from: 2,
    to: 3,
    amount: 1_050,
    fee: 0,
    currency: 'CON',
    transfer: 'PURCHASE',
    byCard: true,
    fromCoins: false,
  },
  { kind: 'advanceClock', hours: 25 },
  { kind: 'expireDeposit', pick: 0 },
  { kind: 'releaseHold', pick: 0 },
  { kind: 'withdraw', owner: 0, amount: 500, currency: 'CON', destination: 'card' },
  { kind: 'withdraw', owner: 1, amount: 500, currency: 'USD', destination: 'bank' },
  { kind: 'processWithdrawal', pick: 0 },
  { kind: 'failWithdrawal', pick: 1 },
  { kind: 'settle', owner: 2, amount: 1_000, fee: 10, currency: 'CON' },
  { kind: 'fee', owner: 3, amount: 100, currency: 'USD' },
  { kind: 'correct', owner: 4, amount: -100, currency: 'CON' },
  {
    kind: 'transfer',
    from: 4,
    to: 3,
    amount: 2_000,
    fee: 0,
    currency: 'USD',
    transfer: 'PURCHASE',
    byCard: false,
    fromCoins: false,
  },
  { kind: 'returnSale', pick: 0, amount: 500 },
  { kind: 'returnSale', pick: 1, amount: 700 },
  { kind: 'confirmCardRefund', pick: 0 },
  { kind: 'returnSale', pick: 0, amount: 300 },
  { kind: 'failCardRefund', pick: 1 },
  { kind: 'retry', pick: 0 },
  // A shop's dollar price paid from coins (owner 1 holds the coins its cleared deposit bought).
  {
    kind: 'transfer',
    from: 1,
    to: 3,
    amount: 475,
    fee: 0,
    currency: 'USD',
    transfer: 'PURCHASE',
    byCard: false,
    fromCoins: true,
  },
];

/** What a card is charged for a payment: the payment itself in cash, the cash price of coins (IMP, which no card buys, is charged in USD and refused). */
/** The fewest coins (hundredths) that sell for `amount` of a cash currency at its rate, 20 coins a dollar. */
function coinsFor(amount: number, currency: 'USD' | 'CAD') {
  const rateMicros = currency === 'USD' ? 1_000_000 : DEFAULT_RATE_MICROS;
  return { coins: Math.ceil((amount * 20 * rateMicros) / 1_000_000), rateMicros, quoteId: 'quote-1' };
}

function cardCharge(total: number, currency: Currency): CardFunding {
  const paymentMethod = { id: 'card-1', type: 'CC' };
  if (currency === 'CON')
    return {
      paymentMethod,
      charge: {
        amount: Number.isSafeInteger(total) && total > 0 ? cashPriceOfCoins(total, 'USD', DEFAULT_RATE_MICROS) : 1,
        currency: 'USD',
      },
      rateMicros: DEFAULT_RATE_MICROS,
    };
  return {
    paymentMethod,
    charge: { amount: total, currency: currency === 'IMP' ? 'USD' : currency },
    rateMicros: null,
  };
}

let runNumber = 0;
const appliedTypes = new Set<string>();
/** Batches decided on wallets known from earlier batches, without a read: the path the property must reach too. */
let batchesOnKnownWallets = 0;
/** Dollar prices paid from coins that the ledger took, so the property reaches that path too. */
let paidFromCoins = 0;

type ModelBalance = { total: number; available: number; withdrawable: number; reserved: number };

/**
 * The balance rules written out plainly, independent of the ledger's own
 * code: what each accepted command must have done to each wallet.
 */
class BalanceModel {
  readonly wallets = new Map<string, ModelBalance>();
  private readonly pending = new Map<string, { walletId: string; amount: number }>();
  private readonly holds = new Map<string, { walletId: string; amount: number }>();
  private readonly withdrawals = new Map<string, { walletId: string; amount: number }>();
  readonly sales = new Map<string, { buyerOwnerId: string; currency: Currency; charge: Cash | null }>();
  private readonly cardReturns = new Map<string, { walletId: string; amount: number; saleTxId: string }>();
  /** What each sale's standing returns took back: every return but one whose card refund failed. */
  readonly returned = new Map<string, number>();

  private wallet(walletId: string): ModelBalance {
    const balance = this.wallets.get(walletId) ?? { total: 0, available: 0, withdrawable: 0, reserved: 0 };
    this.wallets.set(walletId, balance);
    return balance;
  }
  private credit(walletId: string, amount: number, withdrawable: boolean) {
    const balance = this.wallet(walletId);
    balance.total += amount;
    balance.available += amount;
    if (withdrawable) balance.withdrawable += amount;
  }
  private debit(walletId: string, amount: number) {
    const balance = this.wallet(walletId);
    balance.total -= amount;
    balance.available -= amount;
    balance.withdrawable = Math.min(balance.withdrawable, balance.available);
  }

  apply(command: LedgerCommand, walletOf: (owner: string, currency: Currency) => string) {
    switch (command.type) {
      case 'PurchaseCoins': {
        this.credit(
          walletOf(command.ownerId, 'CON'),
          Math.floor((20 * command.charge.amount * 0.78) / 100) * 100,
          true,
        );
        return;
      }
      case 'DepositByCard': {
        this.credit(walletOf(command.ownerId, command.currency), command.amount, true);
        return;
      }
      case 'EnterDeposit':
        this.pending.set(command.txId, {
          walletId: walletOf(command.ownerId, 'CON'),
          amount: Math.floor((20 * command.payment.amount * 0.78) / 100) * 100,
        });
        return;
      case 'ClearDeposit': {
        const deposit = this.pending.get(command.txId);
        if (deposit) this.credit(deposit.walletId, deposit.amount, true);
        return;
      }
      case 'RejectDeposit':
      case 'ExpireDeposit':
        return;
      case 'Transfer': {
        const to = walletOf(command.toOwnerId, command.currency);
        if (command.paidFromCoins) this.debit(walletOf(command.fromOwnerId, 'CON'), command.paidFromCoins.coins);
        else if (!command.fundedBy)
          this.debit(walletOf(command.fromOwnerId, command.currency), command.amount + command.fee);
        this.credit(to, command.amount, command.kind === 'ACCT_TO_ACCT');
        if (command.kind !== 'ACCT_TO_ACCT') this.holds.set(command.txId, { walletId: to, amount: command.amount });
        if (command.kind === 'PURCHASE')
          this.sales.set(command.txId, {
            buyerOwnerId: command.fromOwnerId,
            currency: command.currency,
            charge: command.fundedBy?.charge ?? null,
          });
        return;
      }
      case 'ReleaseHold': {
        const hold = this.holds.get(command.txId);
        if (!hold) return;
        const balance = this.wallet(hold.walletId);
        balance.withdrawable = Math.min(balance.withdrawable + hold.amount, balance.available);
        return;
      }
      case 'RequestWithdrawal': {
        const balance = this.wallet(walletOf(command.ownerId, command.currency));
        balance.available -= command.amount;
        balance.withdrawable -= command.amount;
        balance.reserved += command.amount;
        this.withdrawals.set(command.txId, {
          walletId: walletOf(command.ownerId, command.currency),
          amount: command.amount,
        });
        return;
      }
      case 'ProcessWithdrawal':
      case 'FailWithdrawal': {
        const withdrawal = this.withdrawals.get(command.txId);
        if (!withdrawal) return;
        const balance = this.wallet(withdrawal.walletId);
        balance.reserved -= withdrawal.amount;
        if (command.type === 'ProcessWithdrawal') balance.total -= withdrawal.amount;
        else {
          balance.available += withdrawal.amount;
          balance.withdrawable += withdrawal.amount;
        }
        return;
      }
      case 'SettleMerchantBatch': {
        this.debit(walletOf(command.merchantId, command.currency), command.amount);
        return;
      }
      case 'ChargePlatformFee': {
        this.debit(walletOf(command.ownerId, command.currency), command.amount);
        return;
      }
      case 'ReturnSale': {
        const sale = this.sales.get(command.saleTxId);
        if (!sale) return;
        this.debit(walletOf(command.merchantOwnerId, sale.currency), command.amount);
        this.returned.set(command.saleTxId, (this.returned.get(command.saleTxId) ?? 0) + command.amount);
        // To the buyer's wallet, or to the card, which is outside every wallet.
        if (!command.cardCharge) this.credit(walletOf(sale.buyerOwnerId, sale.currency), command.amount, true);
        else
          this.cardReturns.set(command.txId, {
            walletId: walletOf(command.merchantOwnerId, sale.currency),
            amount: command.amount,
            saleTxId: command.saleTxId,
          });
        return;
      }
      case 'ConfirmCardRefund':
        return;
      case 'FailCardRefund': {
        // Back to the merchant, spendable but not withdrawable: the card may have had it back another way.
        const refused = this.cardReturns.get(command.txId);
        if (refused) {
          this.credit(refused.walletId, refused.amount, false);
          // No longer a return of the sale: the merchant may return that part again.
          this.returned.set(refused.saleTxId, (this.returned.get(refused.saleTxId) ?? 0) - refused.amount);
        }
        return;
      }
      case 'CorrectBalance':
        if (command.amount >= 0) this.credit(walletOf(command.ownerId, command.currency), command.amount, true);
        else this.debit(walletOf(command.ownerId, command.currency), -command.amount);
        return;
    }
  }
}

describe('the ledger under generated command sequences', () => {
  it('keeps every invariant, and its read models equal a rebuild from the log', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
        runNumber += 1;
        database = await createTestDatabase({ max: 2 });
        try {
          await runSequence(steps);
        } finally {
          await database.drop();
        }
      }),
      { numRuns: 40, examples: [[everyCommandOnce]] },
    );
    // The generator reaches every command's success path, not just its refusals.
    expect([...appliedTypes].sort()).toEqual([
      'ChargePlatformFee',
      'ClearDeposit',
      'ConfirmCardRefund',
      'CorrectBalance',
      'DepositByCard',
      'EnterDeposit',
      'ExpireDeposit',
      'FailCardRefund',
      'FailWithdrawal',
      'ProcessWithdrawal',
      'PurchaseCoins',
      'RejectDeposit',
      'ReleaseHold',
      'RequestWithdrawal',
      'ReturnSale',
      'SettleMerchantBatch',
      'Transfer',
    ]);
    expect(batchesOnKnownWallets).toBeGreaterThan(0);
    expect(paidFromCoins).toBeGreaterThan(0);
  }, 180_000);
});

async function runSequence(steps: Step[]): Promise<void> {
  const ownerId = (index: number) => `run${runNumber}-owner${index}`;
  for (let index = 0; index < OWNERS; index++) await openWallets(database.db, ownerId(index));

  const model = new BalanceModel();
  let clock = new Date('2026-01-01T00:00:00Z');
  // Coins bought by card mature within the clock's reach of a sequence, so cash-outs meet both kinds.
  const settings = { holdHours: 24, cardFundsHoldHours: 72, now: () => clock };
  const opened: LedgerCommand[] = [];
  const txIds = {
    deposits: [] as string[],
    transfers: [] as string[],
    withdrawals: [] as string[],
    sales: [] as string[],
    cardReturns: [] as string[],
  };
  let txNumber = 0;
  const nextTxId = () => `run${runNumber}-tx${++txNumber}`;
  const among = (list: string[], index: number) => list[index % Math.max(list.length, 1)] ?? `run${runNumber}-missing`;

  const commandFor = (item: Step): LedgerCommand | null => {
    switch (item.kind) {
      case 'purchase':
        return {
          type: 'PurchaseCoins',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          charge: { amount: item.cash, currency: 'USD' },
          rateMicros: DEFAULT_RATE_MICROS,
          paymentMethod: { id: 'pm', type: 'CC' },
        };
      case 'cardDeposit':
        return {
          type: 'DepositByCard',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          paymentMethod: { id: 'pm', type: 'CC' },
        };
      case 'enterDeposit':
        return {
          type: 'EnterDeposit',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          method: item.method,
          payment: { amount: item.cash, currency: 'CAD' },
          rateMicros: DEFAULT_RATE_MICROS,
          reference: `memo-${txNumber}`,
          expiresAt: item.method === 'bitcoin' ? new Date(clock.getTime() + 24 * 3_600_000).toISOString() : null,
        };
      case 'clearDeposit':
        return { type: 'ClearDeposit', txId: among(txIds.deposits, item.pick), clearedBy: 'ops' };
      case 'rejectDeposit':
        return {
          type: 'RejectDeposit',
          txId: among(txIds.deposits, item.pick),
          reason: 'no transfer arrived',
          rejectedBy: 'ops',
        };
      case 'expireDeposit':
        return { type: 'ExpireDeposit', txId: among(txIds.deposits, item.pick) };
      case 'releaseHold':
        return { type: 'ReleaseHold', txId: among(txIds.transfers, item.pick) };
      case 'processWithdrawal':
        return { type: 'ProcessWithdrawal', txId: among(txIds.withdrawals, item.pick), payoutReference: 'payout' };
      case 'failWithdrawal':
        return {
          type: 'FailWithdrawal',
          txId: among(txIds.withdrawals, item.pick),
          reason: 'card declined the payout',
        };
      case 'returnSale': {
        const saleTxId = among(txIds.sales, item.pick);
        const sale = model.sales.get(saleTxId);
        // The merchant is the sale's payee: the owner the generator sold to.
        const sold = opened.find((each) => each.txId === saleTxId);
        return {
          type: 'ReturnSale',
          txId: nextTxId(),
          saleTxId,
          merchantOwnerId: sold?.type === 'Transfer' ? sold.toOwnerId : ownerId(0),
          amount: item.amount,
          reason: 'wrong size',
          cardCharge: sale?.charge ?? null,
        };
      }
      case 'confirmCardRefund':
        return { type: 'ConfirmCardRefund', txId: among(txIds.cardReturns, item.pick), refundReference: 'refund' };
      case 'failCardRefund':
        return {
          type: 'FailCardRefund',
          txId: among(txIds.cardReturns, item.pick),
          reason: 'refused by the processor',
        };
      case 'retry':
        return opened[item.pick % Math.max(opened.length, 1)] ?? null;
      case 'transfer':
        return {
          type: 'Transfer',
          txId: nextTxId(),
          kind: item.transfer,
          fromOwnerId: ownerId(item.from),
          toOwnerId: ownerId(item.to),
          amount: item.amount,
          fee: item.fee,
          currency: item.currency,
          memo: null,
          ...(item.byCard ? { fundedBy: cardCharge(item.amount + item.fee, item.currency) } : {}),
          ...(item.fromCoins && !item.byCard && (item.currency === 'USD' || item.currency === 'CAD')
            ? { paidFromCoins: coinsFor(item.amount, item.currency) }
            : {}),
        };
      case 'withdraw':
        return {
          type: 'RequestWithdrawal',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          destination: { kind: item.destination, paymentMethodId: 'pm' },
        };
      case 'settle':
        return {
          type: 'SettleMerchantBatch',
          txId: nextTxId(),
          merchantId: ownerId(item.owner),
          batchId: `batch-${txNumber}`,
          amount: item.amount,
          fee: item.fee,
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
      case 'correct':
        return {
          type: 'CorrectBalance',
          txId: nextTxId(),
          ownerId: ownerId(item.owner),
          amount: item.amount,
          currency: item.currency,
          reason: 'reconciliation',
          operatorId: 'finance-1',
        };
      case 'advanceClock':
      case 'close':
        return null;
    }
  };

  // Everyone starts with money in every currency, so spending is tried, not just refused.
  const funding = Array.from(
    { length: OWNERS },
    (_, index) =>
      [
        { kind: 'purchase', owner: index, cash: 500_00 },
        // Coins not bought by card, beside those bought by card: a cash-out may take these at once.
        { kind: 'correct', owner: index, amount: 20_000, currency: 'CON' },
        { kind: 'cardDeposit', owner: index, amount: 200_00, currency: 'USD' },
        { kind: 'cardDeposit', owner: index, amount: 200_00, currency: 'CAD' },
        { kind: 'correct', owner: index, amount: 5_000, currency: 'IMP' },
      ] satisfies Step[],
  ).flat();
  // Every third command runs in another pool, as another process would: the group commit's known wallets go stale.
  const elsewhere = connectDatabase(database.url, { max: 2 });
  try {
    for (const [index, item] of [...funding, ...steps].entries()) {
      if (item.kind === 'advanceClock') {
        clock = new Date(clock.getTime() + item.hours * 3_600_000);
        continue;
      }
      if (item.kind === 'close') {
        await closeWallet(database.db, `wallet:${ownerId(item.owner)}:${item.currency}`).catch((error: unknown) => {
          if (!(error instanceof LedgerRuleViolation)) throw error;
        });
        continue;
      }
      const command = commandFor(item);
      if (!command) continue;
      const eventsBefore = await countEvents();
      const outcome = await executeLedgerCommand(index % 3 === 2 ? elsewhere.db : database.db, command, settings).catch(
        (error: unknown) => {
          if (error instanceof LedgerRuleViolation) return null;
          throw error;
        },
      );
      if (!outcome || outcome.replayed) {
        // A refusal or a retry writes nothing.
        expect(await countEvents()).toBe(eventsBefore);
        continue;
      }
      if (item.kind === 'retry') throw new Error(`retry of ${command.txId} applied again`);
      if (command.type === 'RequestWithdrawal')
        expect(await unmaturedAmong(outcome.record.reservedCoins, clock)).toEqual([]);
      appliedTypes.add(command.type);
      if (command.type === 'Transfer' && command.paidFromCoins) paidFromCoins += 1;
      model.apply(command, (id, walletCurrency) => `wallet:${id}:${walletCurrency}`);
      opened.push(command);
      if (command.type === 'EnterDeposit') txIds.deposits.push(command.txId);
      if (command.type === 'Transfer' && outcome.record.holdAmount !== null) txIds.transfers.push(command.txId);
      if (command.type === 'RequestWithdrawal') txIds.withdrawals.push(command.txId);
      if (command.type === 'Transfer' && command.kind === 'PURCHASE') txIds.sales.push(command.txId);
      if (command.type === 'ReturnSale' && command.cardCharge) txIds.cardReturns.push(command.txId);
    }
    // What the balance says can be withdrawn as cash is exactly what can be: a cent more is refused, all of it is not.
    for (let index = 0; index < OWNERS; index++) {
      const walletId = `wallet:${ownerId(index)}:CON`;
      const wallet = await database.db
        .selectFrom('wallets')
        .selectAll()
        .where('wallet_id', '=', walletId)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (!wallet) continue;
      const cash = withdrawableAsCash(wallet, await maturingIn(walletId, clock));
      const cashOut = (amount: number): LedgerCommand => ({
        type: 'RequestWithdrawal',
        txId: nextTxId(),
        ownerId: ownerId(index),
        amount,
        currency: 'CON',
        destination: { kind: 'bank', paymentMethodId: 'pm' },
      });
      const over = await executeLedgerCommand(database.db, cashOut(cash + 1), settings).catch(
        (error: unknown) => error,
      );
      expect(over, `${walletId}: ${cash + 1} over ${cash}`).toBeInstanceOf(LedgerRuleViolation);
      if (cash === 0) continue;
      const all = cashOut(cash);
      const outcome = await executeLedgerCommand(database.db, all, settings);
      expect(await unmaturedAmong(outcome.record.reservedCoins, clock)).toEqual([]);
      model.apply(all, (id, walletCurrency) => `wallet:${id}:${walletCurrency}`);
    }
  } finally {
    await elsewhere.close();
  }
  const { batches, read } = groupCommitCounts(database.db);
  batchesOnKnownWallets += batches - read;

  await catchUp(database.db, platformBalances);
  const report = await verifyLedger(database.db);
  expect(report.chains.breaks).toEqual([]);
  expect(report.differences).toEqual([]);
  expect(report.invariantFailures).toEqual([]);
  expect(report.ok).toBe(true);
  expect(await globalSums()).toEqual([]);
  const live = await database.db
    .selectFrom('wallets')
    .select(['wallet_id', 'total', 'available', 'withdrawable', 'reserved'])
    .where('owner_id', 'like', `run${runNumber}-%`)
    .where('total', '<>', 0)
    .execute();
  const expected = [...model.wallets]
    .filter(([, balance]) => balance.total !== 0)
    .map(([walletId, balance]) => ({ wallet_id: walletId, ...balance }));
  const byId = (a: { wallet_id: string }, b: { wallet_id: string }) => a.wallet_id.localeCompare(b.wallet_id);
  expect(live.sort(byId)).toEqual(expected.sort(byId));
  await expectSalesAsModelled(model);
}

/** Each sale's sum of returns is the model's, and its standing returns' card refunds stay within its charge. */
async function expectSalesAsModelled(model: BalanceModel) {
  for (const [saleTxId, { charge }] of model.sales) {
    const { rows } = await sql<{ returned: number; refunded: number }>`
      SELECT s.returned_amount AS returned, (
        SELECT coalesce(sum((e.data->'cardRefund'->>'amount')::bigint), 0)::int8 FROM ledger_transactions r
        JOIN events e ON e.stream_id = 'ledger-' || r.tx_id AND e.stream_version = 1
        WHERE r.parent_tx_id = s.tx_id AND r.state <> 'failed'
      ) AS refunded
      FROM ledger_transactions s WHERE s.tx_id = ${saleTxId}
    `.execute(database.db);
    expect(rows[0]?.returned, saleTxId).toBe(model.returned.get(saleTxId) ?? 0);
    expect(rows[0]?.refunded ?? 0).toBeLessThanOrEqual(charge?.amount ?? 0);
  }
}

/** The held coins of `walletId` bought by card that have not matured at `now`, in value. */
async function maturingIn(walletId: string, now: Date): Promise<number> {
  const { rows } = await sql<{ value: number }>`
    SELECT coalesce(sum(value), 0)::int AS value FROM coins WHERE holder = ${walletId} AND status = 'held' AND matures_at > ${now}
  `.execute(database.db);
  return rows[0]?.value ?? 0;
}

/** Those of `coins` that have not matured at `now`: a withdrawal must never have taken one. */
async function unmaturedAmong(coins: readonly { serial: string }[], now: Date): Promise<string[]> {
  if (coins.length === 0) return [];
  const { rows } = await sql<{ serial: string }>`
    SELECT serial FROM coins WHERE serial = ANY(${coins.map((coin) => coin.serial)}::text[]) AND matures_at > ${now}
  `.execute(database.db);
  return rows.map((row) => row.serial);
}

async function countEvents(): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM events`.execute(database.db);
  return rows[0]?.count ?? 0;
}

/** Over the whole ledger, every currency's entries net to zero: money is only ever moved. */
async function globalSums() {
  const { rows } = await sql<{ currency: string; net: string }>`
    SELECT currency, sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END)::text AS net
    FROM ledger_entries GROUP BY currency HAVING sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END) <> 0
  `.execute(database.db);
  return rows;
}
