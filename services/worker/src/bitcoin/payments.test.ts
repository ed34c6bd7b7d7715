import { describe, expect, it } from 'vitest';
import type { AddressPayment } from './esplora.ts';
import { judgePayments, watchStateWith, type WatchedDeposit } from './payments.ts';

const EXPIRY = new Date('2026-11-22T12:00:00Z');
const BEFORE = new Date('2026-11-22T11:00:00Z');
const AFTER = new Date('2026-11-22T12:00:01Z');
const TIP = 800_000;

const deposit = (state: WatchedDeposit['state'] = 'pending'): WatchedDeposit => ({
  state,
  amountSats: 10_000,
  expiresAt: EXPIRY,
});
const mempool = (sats: number, txid = `tx-${sats}`): AddressPayment => ({ txid, sats, blockHeight: null });
/** Mined `confirmations` blocks deep at TIP. */
const mined = (sats: number, confirmations: number, txid = `tx-${sats}`): AddressPayment => ({
  txid,
  sats,
  blockHeight: TIP - confirmations + 1,
});

const judge = (given: WatchedDeposit, payments: AddressPayment[], now = BEFORE, confirmations = 2) =>
  judgePayments(given, { payments, tipHeight: TIP, confirmations, now });

describe('judgePayments', () => {
  it('leaves a deposit with no payment pending until it expires, then expires it', () => {
    expect(judge(deposit(), [])).toEqual({
      state: 'pending',
      receivedSats: 0,
      confirmedSats: 0,
      txids: [],
      confirmations: null,
    });
    expect(judge(deposit(), [], EXPIRY).state).toBe('expired');
  });

  it('moves a deposit paid in the mempool to processing, and keeps it there past its expiry', () => {
    expect(judge(deposit(), [mempool(10_000)])).toEqual({
      state: 'processing',
      receivedSats: 10_000,
      confirmedSats: 0,
      txids: ['tx-10000'],
      confirmations: 0,
    });
    expect(judge(deposit('processing'), [mempool(10_000)], AFTER).state).toBe('processing');
  });

  it('clears the exact amount once it has the configured confirmations, not before', () => {
    expect(judge(deposit('processing'), [mined(10_000, 1)]).state).toBe('processing');
    expect(judge(deposit('processing'), [mined(10_000, 2)])).toEqual({
      state: 'cleared',
      receivedSats: 10_000,
      confirmedSats: 10_000,
      txids: ['tx-10000'],
      confirmations: 2,
    });
    expect(judge(deposit('processing'), [mined(10_000, 1)], BEFORE, 1).state).toBe('cleared');
  });

  it('clears the exact amount paid in several transactions, once all are confirmed', () => {
    expect(judge(deposit('processing'), [mined(4_000, 3, 'a'), mined(6_000, 1, 'b')]).state).toBe('processing');
    expect(judge(deposit('processing'), [mined(4_000, 3, 'a'), mined(6_000, 2, 'b')])).toMatchObject({
      state: 'cleared',
      txids: ['a', 'b'],
    });
  });

  it('clears a payment seen before expiry that confirms after it', () => {
    expect(judge(deposit('processing'), [mined(10_000, 2)], AFTER).state).toBe('cleared');
  });

  it('flags an overpayment once it is confirmed, and never clears it', () => {
    expect(judge(deposit('processing'), [mined(10_000, 2, 'a'), mempool(1, 'b')]).state).toBe('processing');
    expect(judge(deposit('processing'), [mined(10_001, 2)])).toEqual({
      state: 'flagged',
      receivedSats: 10_001,
      confirmedSats: 10_001,
      txids: ['tx-10001'],
      confirmations: 2,
      flag: { flag: 'overpaid', reason: '10001 sats confirmed, 1 more than the 10000 due' },
    });
  });

  it('waits for the rest of an underpayment until expiry, then flags it', () => {
    expect(judge(deposit('processing'), [mined(9_999, 6)]).state).toBe('processing');
    expect(judge(deposit('processing'), [mined(9_999, 6)], EXPIRY)).toMatchObject({
      state: 'flagged',
      flag: { flag: 'underpaid', reason: '9999 of the 10000 sats due had arrived when the deposit expired' },
    });
  });

  it('flags a payment first seen at or after expiry as late, whatever its amount', () => {
    expect(judge(deposit('pending'), [mempool(10_000)], EXPIRY).flag?.flag).toBe('late');
    expect(judge(deposit('expired'), [mined(10_000, 5)], AFTER)).toMatchObject({
      state: 'flagged',
      receivedSats: 10_000,
      flag: { flag: 'late', reason: '10000 sats arrived after the deposit expired (10000 sats were due)' },
    });
    expect(judge(deposit('expired'), [], AFTER)).toEqual({
      state: 'expired',
      receivedSats: 0,
      confirmedSats: 0,
      txids: [],
      confirmations: null,
    });
  });

  it('flags a cleared deposit that is paid again', () => {
    expect(judge(deposit('cleared'), [mined(10_000, 9)]).state).toBe('cleared');
    expect(judge(deposit('cleared'), [mined(10_000, 9, 'a'), mempool(500, 'b')]).flag?.flag).toBe('paid-again');
  });

  it('keeps a flagged deposit flagged, with its amounts brought up to date and no new flag', () => {
    expect(judge(deposit('flagged'), [mined(9_999, 6, 'a'), mined(1, 2, 'b')], AFTER)).toEqual({
      state: 'flagged',
      receivedSats: 10_000,
      confirmedSats: 10_000,
      txids: ['a', 'b'],
      confirmations: 2,
    });
  });

  it('counts the confirmations of the least confirmed payment, up to the count that clears', () => {
    expect(judge(deposit('processing'), [mined(10_000, 1)]).confirmations).toBe(1);
    expect(judge(deposit('processing'), [mined(4_000, 3, 'a'), mempool(6_000, 'b')]).confirmations).toBe(0);
    expect(judge(deposit('processing'), [mined(4_000, 3, 'a'), mined(6_000, 1, 'b')]).confirmations).toBe(1);
    expect(judge(deposit('cleared'), [mined(10_000, 40)], BEFORE, 6).confirmations).toBe(6);
  });

  it('goes back to pending when a mempool payment disappears (replaced or dropped)', () => {
    expect(judge(deposit('processing'), []).state).toBe('pending');
  });
});

describe('watchStateWith', () => {
  it("takes a deposit the ledger closed some other way as closed, and otherwise keeps the watcher's own state", () => {
    expect(watchStateWith('pending', 'expired')).toBe('expired');
    expect(watchStateWith('processing', 'completed')).toBe('cleared');
    expect(watchStateWith('processing', 'pending')).toBe('processing');
    expect(watchStateWith('flagged', 'expired')).toBe('flagged');
    expect(watchStateWith('cleared', 'completed')).toBe('cleared');
  });
});
