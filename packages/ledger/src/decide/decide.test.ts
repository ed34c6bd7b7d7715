import { describe, expect, it } from 'vitest';
import { walletIdOf } from '../accounts.ts';
import type { LedgerCommand } from '../commands.ts';
import { LedgerRuleViolation } from '../errors.ts';
import type { TransactionEvent } from '../events.ts';
import { balanceChangesOf } from '../projection.ts';
import { evolveTransaction } from '../transaction.ts';
import { decide, needsOf, type LedgerState, type WalletState } from './index.ts';

const now = new Date('2026-11-21T12:00:00Z');
const serials = () => {
  let next = 0;
  return () => `S${++next}`;
};
const context = () => ({ now, newSerial: serials(), holdHours: 24, cardFundsHoldHours: 168 });

const wallet = (
  ownerId: string,
  currency: WalletState['currency'],
  available: number,
  fields: Partial<WalletState> = {},
): WalletState => ({
  walletId: walletIdOf(ownerId, currency),
  ownerId,
  currency,
  status: 'open',
  total: available,
  available,
  withdrawable: available,
  reserved: 0,
  ...fields,
});
const given = (
  wallets: WalletState[],
  coins: LedgerState['coins'] = [],
  tx: LedgerState['tx'] = null,
): LedgerState => ({
  tx,
  wallets: new Map(wallets.map((entry) => [entry.walletId, entry])),
  coins,
});
const refusalOf = (command: LedgerCommand, state: LedgerState) => {
  try {
    decide(command, state, context());
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};
const sumsByCurrency = (event: TransactionEvent) => {
  const sums: Record<string, number> = {};
  for (const posting of event.data.postings) sums[posting.currency] = (sums[posting.currency] ?? 0) + posting.amount;
  return sums;
};

const send = (fields: Partial<Extract<LedgerCommand, { type: 'Transfer' }>> = {}): LedgerCommand => ({
  type: 'Transfer',
  txId: 'tx-1',
  kind: 'P2P',
  fromOwnerId: 'ann',
  toOwnerId: 'ben',
  amount: 700,
  fee: 0,
  currency: 'CON',
  memo: null,
  ...fields,
});

describe('Transfer', () => {
  it('given coins of 500 and 400, when Ann sends 700 with a fee of 50, moves the 500, splits the 400, and holds the money for Ben', () => {
    const state = given(
      [wallet('ann', 'CON', 900), wallet('ben', 'CON', 0)],
      [
        { serial: 'A', value: 400 },
        { serial: 'B', value: 500 },
      ],
    );
    const [event] = decide(send({ fee: 50 }), state, context());
    if (event?.type !== 'FundsTransferred') throw new Error('expected FundsTransferred');
    expect(sumsByCurrency(event)).toEqual({ CON: 0 });
    expect(event.data.postings.map((posting) => [posting.type, posting.amount])).toEqual([
      ['P2P_SENT', -700],
      ['P2P_RCVD', 700],
      ['FEE_PLATFORM', -50],
      ['FEE_PLATFORM', 50],
    ]);
    expect(event.data.coins).toEqual([
      {
        action: 'split',
        serial: 'A',
        value: 400,
        holder: 'wallet:ann:CON',
        into: [
          { serial: 'S1', value: 200 },
          { serial: 'S2', value: 200 },
        ],
      },
      { action: 'move', serial: 'B', value: 500, from: 'wallet:ann:CON', to: 'wallet:ben:CON' },
      { action: 'move', serial: 'S1', value: 200, from: 'wallet:ann:CON', to: 'wallet:ben:CON' },
      {
        action: 'split',
        serial: 'S2',
        value: 200,
        holder: 'wallet:ann:CON',
        into: [
          { serial: 'S3', value: 50 },
          { serial: 'S4', value: 150 },
        ],
      },
      { action: 'move', serial: 'S3', value: 50, from: 'wallet:ann:CON', to: 'platform:fees:CON' },
    ]);
    expect(event.data.hold).toEqual({ amount: 700, releaseAt: '2026-11-22T12:00:00.000Z' });
  });

  it('needs both wallets and a covering prefix of the sender’s coins', () => {
    expect(needsOf(send({ fee: 5 }), null)).toEqual({
      wallets: ['wallet:ann:CON', 'wallet:ben:CON'],
      coins: { walletId: 'wallet:ann:CON', amount: 705 },
    });
    expect(needsOf(send({ currency: 'USD' }), null).coins).toBeNull();
  });

  it('does not hold money moved between accounts of the same person', () => {
    const [event] = decide(
      send({ kind: 'ACCT_TO_ACCT', currency: 'USD' }),
      given([wallet('ann', 'USD', 900), wallet('ben', 'USD', 0)]),
      context(),
    );
    expect(event?.type === 'FundsTransferred' && event.data.hold).toBeNull();
  });

  it.each([
    ['more than is available', send({ amount: 901 }), 'insufficient_funds'],
    ['to oneself', send({ toOwnerId: 'ann' }), 'send_to_self'],
    ['a zero amount', send({ amount: 0 }), 'amount_not_positive'],
    ['a fraction of a minor unit', send({ amount: 0.5 }), 'invalid_amount'],
    ['more than 500 coins', send({ amount: 50_001 }), 'amount_above_limit'],
    ['to an unknown wallet', send({ toOwnerId: 'nobody' }), 'wallet_not_found'],
  ])('refuses %s', (_name, command, code) => {
    const state = given([wallet('ann', 'CON', 900), wallet('ben', 'CON', 0)], [{ serial: 'A', value: 900 }]);
    expect(refusalOf(command, state)).toBe(code);
  });

  it('refuses a closed wallet', () => {
    expect(refusalOf(send(), given([wallet('ann', 'CON', 900), wallet('ben', 'CON', 0, { status: 'closed' })]))).toBe(
      'wallet_closed',
    );
  });
});

describe('Transfer of a cash price paid from coins', () => {
  // $4.75 at 20 coins a dollar: 95 coins.
  const fromCoins = { coins: 9_500, rateMicros: 1_000_000, quoteId: 'qt_1' };
  const pay = (fields: Partial<Extract<LedgerCommand, { type: 'Transfer' }>> = {}) =>
    send({ kind: 'PURCHASE', toOwnerId: 'shop', amount: 475, currency: 'USD', paidFromCoins: fromCoins, ...fields });
  const shopAndAnn = (coins = 10_000) =>
    given([wallet('ann', 'CON', coins), wallet('shop', 'USD', 0)], [{ serial: 'A', value: coins }]);

  it('takes the coins from Ann’s CON wallet into the exchange and pays the shop dollars, each currency balancing', () => {
    const [event] = decide(pay(), shopAndAnn(), context());
    if (event?.type !== 'FundsTransferred') throw new Error('expected FundsTransferred');
    expect(sumsByCurrency(event)).toEqual({ CON: 0, USD: 0 });
    expect(event.data.postings).toEqual([
      { account: 'wallet:ann:CON', currency: 'CON', amount: -9_500, type: 'PURCHASE' },
      { account: 'platform:exchange:CON', currency: 'CON', amount: 9_500, type: 'PURCHASE' },
      { account: 'platform:exchange:USD', currency: 'USD', amount: -475, type: 'PURCHASE' },
      { account: 'wallet:shop:USD', currency: 'USD', amount: 475, type: 'PURCHASE' },
    ]);
    // The coins are retired, as coins converted to cash are; the change stays Ann's.
    expect(event.data.coins).toEqual([
      {
        action: 'split',
        serial: 'A',
        value: 10_000,
        holder: 'wallet:ann:CON',
        into: [
          { serial: 'S1', value: 9_500 },
          { serial: 'S2', value: 500 },
        ],
      },
      { action: 'burn', serial: 'S1', value: 9_500, from: 'wallet:ann:CON' },
    ]);
    expect(event.data.fromWalletId).toBe('wallet:ann:CON');
    expect(event.data.hold?.amount).toBe(475);
    expect(balanceChangesOf(event).map(([walletId, change]) => [walletId, change.available])).toEqual([
      ['wallet:ann:CON', -9_500],
      ['wallet:shop:USD', 475],
    ]);
    const tx = evolveTransaction(null, event, now);
    expect([tx.type, tx.amount, tx.currency, tx.payerWalletId]).toEqual(['sale', 475, 'USD', 'wallet:ann:CON']);
  });

  it('needs Ann’s CON wallet with coins for the price and the shop’s wallet in the price’s currency', () => {
    expect(needsOf(pay(), null)).toEqual({
      wallets: ['wallet:ann:CON', 'wallet:shop:USD'],
      coins: { walletId: 'wallet:ann:CON', amount: 9_500 },
    });
  });

  it.each([
    ['coins short of the price', pay({ paidFromCoins: { ...fromCoins, coins: 9_499 } }), 'invalid_amount'],
    [
      'coins short of a CAD price at its rate',
      pay({ currency: 'CAD', paidFromCoins: { coins: 7_409, rateMicros: 780_000, quoteId: 'qt_2' } }),
      'invalid_amount',
    ],
    ['a price in coins', pay({ currency: 'CON', amount: 9_500 }), 'currency_mismatch'],
    ['a fee', pay({ fee: 5 }), 'invalid_amount'],
    [
      'a card as well',
      pay({
        fundedBy: {
          paymentMethod: { id: '7', type: 'CC' },
          charge: { amount: 475, currency: 'USD' },
          rateMicros: null,
        },
      }),
      'payment_method_wrong_use',
    ],
  ])('refuses %s', (_name, command, code) => {
    const state = given(
      [wallet('ann', 'CON', 10_000), wallet('shop', 'USD', 0), wallet('shop', 'CAD', 0), wallet('shop', 'CON', 0)],
      [{ serial: 'A', value: 10_000 }],
    );
    expect(refusalOf(command, state)).toBe(code);
  });

  it('refuses when Ann has fewer coins than the price costs', () => {
    expect(refusalOf(pay(), shopAndAnn(9_000))).toBe('insufficient_funds');
  });

  it('pays a CAD price at its rate: $4.75 CAD at 0.78 is 74.10 coins', () => {
    const [event] = decide(
      pay({ currency: 'CAD', paidFromCoins: { coins: 7_410, rateMicros: 780_000, quoteId: 'qt_2' } }),
      given([wallet('ann', 'CON', 10_000), wallet('shop', 'CAD', 0)], [{ serial: 'A', value: 10_000 }]),
      context(),
    );
    if (event?.type !== 'FundsTransferred') throw new Error('expected FundsTransferred');
    expect(sumsByCurrency(event)).toEqual({ CON: 0, CAD: 0 });
  });
});

describe('Transfer funded by a card', () => {
  const card = {
    paymentMethod: { id: '7', type: 'CC' },
    charge: { amount: 700, currency: 'USD' as const },
    rateMicros: null,
  };
  const cardSend = (fields: Partial<Extract<LedgerCommand, { type: 'Transfer' }>> = {}) =>
    send({ currency: 'USD', fundedBy: card, ...fields });
  const balancesOf = (event: TransactionEvent) => balanceChangesOf(event).map(([walletId]) => walletId);

  it('posts card funding to Ben, leaves Ann’s wallet alone, and records the card', () => {
    // Ann has nothing: a card-funded payment does not need her balance.
    const [event] = decide(cardSend(), given([wallet('ann', 'USD', 0), wallet('ben', 'USD', 0)]), context());
    if (event?.type !== 'FundsTransferred') throw new Error('expected FundsTransferred');
    expect(event.data.postings).toEqual([
      { account: 'platform:card-funding:USD', currency: 'USD', amount: -700, type: 'P2P_SENT' },
      { account: 'wallet:ben:USD', currency: 'USD', amount: 700, type: 'P2P_RCVD' },
    ]);
    expect(event.data.coins).toEqual([]);
    expect(event.data.hold?.amount).toBe(700);
    expect(balancesOf(event)).toEqual(['wallet:ben:USD']);
    const tx = evolveTransaction(null, event, now);
    expect([tx.payerOwnerId, tx.payeeOwnerId, tx.paymentMethodId, tx.paymentMethodType]).toEqual([
      'ann',
      'ben',
      '7',
      'CC',
    ]);
  });

  it('needs only the payee’s wallet and no coins', () => {
    expect(needsOf(cardSend({ currency: 'CON' }), null)).toEqual({ wallets: ['wallet:ben:CON'], coins: null });
  });

  it('mints the coins of a CON payment to the payee and the fee, through the exchange, maturing as bought ones do', () => {
    // 7.05 coins at 0.78: 705 / (2000 × 0.78) dollars = 0.4519… → 46 cents.
    const funding = { ...card, charge: { amount: 46, currency: 'USD' as const }, rateMicros: 780_000 };
    const [event] = decide(send({ fundedBy: funding, fee: 5 }), given([wallet('ben', 'CON', 0)]), context());
    if (event?.type !== 'FundsTransferred') throw new Error('expected FundsTransferred');
    // The card's dollars and the coins balance apart: the charge enters in USD, the coins leave the CON exchange.
    expect(sumsByCurrency(event)).toEqual({ USD: 0, CON: 0 });
    expect(event.data.postings.map((posting) => [posting.account, posting.amount])).toEqual([
      ['platform:card-funding:USD', -46],
      ['platform:exchange:USD', 46],
      ['platform:exchange:CON', -700],
      ['wallet:ben:CON', 700],
      ['platform:exchange:CON', -5],
      ['platform:fees:CON', 5],
    ]);
    expect(event.data.coins).toEqual([
      { action: 'mint', serial: 'S1', value: 700, to: 'wallet:ben:CON', maturesAt: '2026-11-28T12:00:00.000Z' },
      { action: 'mint', serial: 'S2', value: 5, to: 'platform:fees:CON', maturesAt: '2026-11-28T12:00:00.000Z' },
    ]);
  });

  it.each([
    [
      'a charge in another currency',
      cardSend({ fundedBy: { ...card, charge: { amount: 700, currency: 'CAD' } } }),
      'currency_mismatch',
    ],
    [
      'a charge short of the payment',
      cardSend({ fundedBy: { ...card, charge: { amount: 699, currency: 'USD' } } }),
      'invalid_amount',
    ],
    [
      'a charge in coins',
      cardSend({
        currency: 'CON',
        fundedBy: { ...card, charge: { amount: 700, currency: 'CON' }, rateMicros: 780_000 },
      }),
      'currency_mismatch',
    ],
    ['a CON payment without a rate', cardSend({ currency: 'CON' }), 'invalid_amount'],
    [
      'a CON payment its charge does not cover',
      cardSend({
        currency: 'CON',
        fundedBy: { ...card, charge: { amount: 44, currency: 'USD' }, rateMicros: 780_000 },
      }),
      'invalid_amount',
    ],
    ['impressions', cardSend({ currency: 'IMP', amount: 7 }), 'currency_mismatch'],
    [
      'more than 500',
      cardSend({ amount: 50_001, fundedBy: { ...card, charge: { amount: 50_001, currency: 'USD' } } }),
      'amount_above_limit',
    ],
    ['to oneself', cardSend({ toOwnerId: 'ann' }), 'send_to_self'],
  ])('refuses %s', (_name, command, code) => {
    const state = given([
      wallet('ben', 'USD', 0),
      wallet('ben', 'CON', 0),
      wallet('ben', 'IMP', 0),
      wallet('ann', 'USD', 0),
    ]);
    expect(refusalOf(command, state)).toBe(code);
  });
});

describe('Withdrawal', () => {
  const request: LedgerCommand = {
    type: 'RequestWithdrawal',
    txId: 'w-1',
    ownerId: 'ann',
    amount: 300,
    currency: 'CON',
    destination: { kind: 'card', paymentMethodId: 'pm' },
  };

  it('given money on hold, refuses to pay it out', () => {
    expect(refusalOf(request, given([wallet('ann', 'CON', 500, { withdrawable: 200 })]))).toBe('funds_on_hold');
  });

  it('reserves exact serials, then burns them against the card funding account when paid out', () => {
    const [requested] = decide(request, given([wallet('ann', 'CON', 500)], [{ serial: 'A', value: 500 }]), context());
    if (!requested) throw new Error('expected WithdrawalRequested');
    const tx = evolveTransaction(null, requested, now);
    expect(tx.reservedCoins).toEqual([{ serial: 'S1', value: 300 }]);

    const [processed] = decide(
      { type: 'ProcessWithdrawal', txId: 'w-1', payoutReference: 'p-1' },
      given([], [], tx),
      context(),
    );
    if (processed?.type !== 'WithdrawalProcessed') throw new Error('expected WithdrawalProcessed');
    expect(processed.data.postings).toEqual([
      { account: 'wallet:ann:CON', currency: 'CON', amount: -300, type: 'WITHDRAW' },
      { account: 'platform:card-funding:CON', currency: 'CON', amount: 300, type: 'WITHDRAW' },
    ]);
    expect(processed.data.coins).toEqual([{ action: 'burn', serial: 'S1', value: 300, from: 'wallet:ann:CON' }]);
    expect(
      refusalOf(
        { type: 'FailWithdrawal', txId: 'w-1', reason: 'late' },
        given([], [], evolveTransaction(tx, processed, now)),
      ),
    ).toBe('transaction_state_invalid');
  });
});

describe('Withdrawing coins as cash', () => {
  it('pays 50 coins out as $3.20 CAD through the exchange accounts, each currency balancing on its own', () => {
    const request: LedgerCommand = {
      type: 'RequestWithdrawal',
      txId: 'w-2',
      ownerId: 'ann',
      amount: 50_00,
      currency: 'CON',
      destination: { kind: 'card', paymentMethodId: 'pm' },
      payout: { amount: 3_20, currency: 'CAD' },
      quoteId: 'qt_2',
    };
    const [requested] = decide(
      request,
      given([wallet('ann', 'CON', 50_00)], [{ serial: 'A', value: 50_00 }]),
      context(),
    );
    if (requested?.type !== 'WithdrawalRequested') throw new Error('expected WithdrawalRequested');
    expect([requested.data.payout, requested.data.quoteId]).toEqual([{ amount: 3_20, currency: 'CAD' }, 'qt_2']);
    const tx = evolveTransaction(null, requested, now);
    const [processed] = decide(
      { type: 'ProcessWithdrawal', txId: 'w-2', payoutReference: 'p-2', payout: { amount: 3_20, currency: 'CAD' } },
      given([], [], tx),
      context(),
    );
    if (processed?.type !== 'WithdrawalProcessed') throw new Error('expected WithdrawalProcessed');
    expect(processed.data.postings.map((posting) => [posting.account, posting.currency, posting.amount])).toEqual([
      ['wallet:ann:CON', 'CON', -50_00],
      ['platform:exchange:CON', 'CON', 50_00],
      ['platform:exchange:CAD', 'CAD', -3_20],
      ['platform:card-funding:CAD', 'CAD', 3_20],
    ]);
    expect(sumsByCurrency(processed)).toEqual({ CON: 0, CAD: 0 });
    expect(processed.data.coins).toEqual([{ action: 'burn', serial: 'A', value: 50_00, from: 'wallet:ann:CON' }]);
    expect(
      refusalOf(
        { type: 'ProcessWithdrawal', txId: 'w-2', payoutReference: 'p-2', payout: { amount: 0, currency: 'CAD' } },
        given([], [], tx),
      ),
    ).toBe('amount_not_positive');
  });
});

describe('Deposits', () => {
  it('enters an e-mail transfer deposit for floor(20 × amount × rate) coins and credits nothing until it clears', () => {
    const [entered] = decide(
      {
        type: 'EnterDeposit',
        txId: 'd-1',
        ownerId: 'ann',
        method: 'interac',
        payment: { amount: 12_34, currency: 'CAD' },
        rateMicros: 780_000,
        reference: 'memo',
        expiresAt: null,
      },
      given([wallet('ann', 'CON', 0)]),
      context(),
    );
    if (entered?.type !== 'DepositEntered') throw new Error('expected DepositEntered');
    // floor(20 × 12.34 × 0.78) = floor(192.504) = 192 coins.
    expect(entered.data.amount).toBe(192_00);
    expect(entered.data.postings).toEqual([]);

    const tx = evolveTransaction(null, entered, now);
    const [cleared] = decide(
      { type: 'ClearDeposit', txId: 'd-1', clearedBy: 'ops' },
      given([wallet('ann', 'CON', 0)], [], tx),
      context(),
    );
    if (cleared?.type !== 'DepositCleared') throw new Error('expected DepositCleared');
    expect(cleared.data.postings.map((posting) => [posting.account, posting.amount])).toEqual([
      ['platform:email-transfer-funding:CAD', -12_34],
      ['platform:exchange:CAD', 12_34],
      ['platform:exchange:CON', -192_00],
      ['wallet:ann:CON', 192_00],
    ]);
    expect(sumsByCurrency(cleared)).toEqual({ CAD: 0, CON: 0 });
    expect(refusalOf({ type: 'ExpireDeposit', txId: 'd-1' }, given([], [], tx))).toBe('transaction_state_invalid');
  });
});

describe('A coin purchase, a conversion', () => {
  it('posts two legs through the exchange accounts, each currency balancing on its own', () => {
    const [bought] = decide(
      {
        type: 'PurchaseCoins',
        txId: 'p-1',
        ownerId: 'ann',
        charge: { amount: 64_11, currency: 'CAD' },
        rateMicros: 780_000,
        paymentMethod: { id: '7', type: 'CC' },
        quoteId: 'qt_1',
      },
      given([wallet('ann', 'CON', 0)]),
      context(),
    );
    if (bought?.type !== 'CoinsPurchased') throw new Error('expected CoinsPurchased');
    // floor(20 × 64.11 × 0.78) = floor(1000.116) = 1,000 coins.
    expect(bought.data.postings.map((posting) => [posting.account, posting.currency, posting.amount])).toEqual([
      ['platform:card-funding:CAD', 'CAD', -64_11],
      ['platform:exchange:CAD', 'CAD', 64_11],
      ['platform:exchange:CON', 'CON', -1_000_00],
      ['wallet:ann:CON', 'CON', 1_000_00],
    ]);
    expect(sumsByCurrency(bought)).toEqual({ CAD: 0, CON: 0 });
    expect(bought.data.quoteId).toBe('qt_1');
  });
});

describe('Corrections and settlement', () => {
  it('burns coins for a negative correction and refuses one without a reason', () => {
    const state = given([wallet('ann', 'CON', 500)], [{ serial: 'A', value: 500 }]);
    const correction: LedgerCommand = {
      type: 'CorrectBalance',
      txId: 'c-1',
      ownerId: 'ann',
      amount: -500,
      currency: 'CON',
      reason: 'duplicate deposit',
      operatorId: 'fin-1',
    };
    const [event] = decide(correction, state, context());
    expect(event?.data.coins).toEqual([{ action: 'burn', serial: 'A', value: 500, from: 'wallet:ann:CON' }]);
    expect(refusalOf({ ...correction, reason: ' ' }, state)).toBe('required_field');
  });

  it('settles a batch to the settlement account less the platform fee', () => {
    const [event] = decide(
      {
        type: 'SettleMerchantBatch',
        txId: 's-1',
        merchantId: 'shop',
        batchId: 'b-1',
        amount: 10_000,
        fee: 250,
        currency: 'USD',
      },
      given([wallet('shop', 'USD', 10_000)]),
      context(),
    );
    if (!event) throw new Error('expected MerchantBatchSettled');
    expect(sumsByCurrency(event)).toEqual({ USD: 0 });
    expect(event.data.postings.map((posting) => posting.type)).toEqual(['SETTLE_SEND', 'SETTLE_RCV', 'FEE_PLATFORM']);
  });
});
