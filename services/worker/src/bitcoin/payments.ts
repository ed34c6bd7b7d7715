import type { BitcoinDepositFlag, BitcoinWatchState } from '@peeks/db';
import type { AddressPayment } from './esplora.ts';

/** A deposit as the rule needs it. */
export interface WatchedDeposit {
  state: BitcoinWatchState;
  /** The quote's satoshis: the exact amount that clears the deposit. */
  amountSats: number;
  expiresAt: Date;
}

export interface Observation {
  payments: readonly AddressPayment[];
  tipHeight: number;
  /** BITCOIN_CONFIRMATIONS. */
  confirmations: number;
  now: Date;
}

export interface Verdict {
  state: BitcoinWatchState;
  /** Satoshis paid to the address (mempool and mined), and those with enough confirmations. */
  receivedSats: number;
  confirmedSats: number;
  txids: string[];
  /** The fewest confirmations among the payments (0 while one is in the mempool), at most the count that clears; null with none. */
  confirmations: number | null;
  /** Only when the verdict flags the deposit now. */
  flag?: { flag: BitcoinDepositFlag; reason: string };
}

/**
 * The watcher's state of a deposit, given its ledger transaction's: a deposit
 * the ledger has closed some other way (expired by hand, by an older
 * process) counts as closed, so that a payment to it is flagged, not
 * credited, and the watcher does not try to close it a second time.
 */
export function watchStateWith(own: BitcoinWatchState, ledgerState: string | undefined): BitcoinWatchState {
  if (own !== 'pending' && own !== 'processing') return own;
  if (ledgerState === 'expired') return 'expired';
  if (ledgerState === 'completed') return 'cleared';
  return own;
}

const confirmationsOf = (payment: AddressPayment, tipHeight: number) =>
  payment.blockHeight === null ? 0 : tipHeight - payment.blockHeight + 1;

/**
 * What the payments seen at a deposit's address make of it. Only the exact
 * amount due clears it: any other amount is flagged for an operator and
 * never credited by the watcher, since the coins were quoted for that
 * amount. Decisions on amounts wait for enough confirmations (a mempool
 * transaction can still be replaced or dropped); a payment merely seen
 * moves the deposit to processing, which keeps it from expiring.
 *
 * - pending/processing, all of the exact amount confirmed (nothing more seen): cleared.
 * - more than the amount confirmed: flagged overpaid.
 * - at expiry with less than the amount seen: flagged underpaid (until then
 *   the user may still send the rest).
 * - at expiry with nothing seen: expired; first seen only at or after
 *   expiry: flagged late (the quote had run out).
 * - expired, then paid: flagged late; cleared, then paid again: flagged.
 * - flagged: stays flagged, only its amounts are kept up to date.
 */
export function judgePayments(deposit: WatchedDeposit, observation: Observation): Verdict {
  const { payments, tipHeight, confirmations, now } = observation;
  const receivedSats = sum(payments);
  const confirmedSats = sum(payments.filter((payment) => confirmationsOf(payment, tipHeight) >= confirmations));
  const seen = {
    receivedSats,
    confirmedSats,
    txids: payments.map((payment) => payment.txid),
    // Capped at the count that clears: deeper blocks change nothing the user waits for, and write nothing.
    confirmations:
      payments.length === 0
        ? null
        : Math.min(confirmations, ...payments.map((payment) => confirmationsOf(payment, tipHeight))),
  };
  const due = deposit.amountSats;
  const flagged = (flag: BitcoinDepositFlag, reason: string): Verdict => ({
    ...seen,
    state: 'flagged',
    flag: { flag, reason },
  });
  const expired = now.getTime() >= deposit.expiresAt.getTime();

  switch (deposit.state) {
    case 'flagged':
      return { ...seen, state: 'flagged' };
    case 'cleared':
      return receivedSats > due
        ? flagged('paid-again', `${receivedSats - due} sats more arrived after the deposit of ${due} sats cleared`)
        : { ...seen, state: 'cleared' };
    case 'expired':
      return receivedSats > 0
        ? flagged('late', `${receivedSats} sats arrived after the deposit expired (${due} sats were due)`)
        : { ...seen, state: 'expired' };
    case 'pending':
    case 'processing':
      if (receivedSats === 0) return { ...seen, state: expired ? 'expired' : 'pending' };
      if (deposit.state === 'pending' && expired)
        return flagged('late', `${receivedSats} sats were first seen after the deposit expired (${due} sats were due)`);
      if (confirmedSats > due)
        return flagged('overpaid', `${confirmedSats} sats confirmed, ${confirmedSats - due} more than the ${due} due`);
      if (confirmedSats === due && receivedSats === due) return { ...seen, state: 'cleared' };
      if (expired && receivedSats < due)
        return flagged('underpaid', `${receivedSats} of the ${due} sats due had arrived when the deposit expired`);
      return { ...seen, state: 'processing' };
  }
}

const sum = (payments: readonly AddressPayment[]) => payments.reduce((total, payment) => total + payment.sats, 0);
