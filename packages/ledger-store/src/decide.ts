import { GENESIS_HASH, prepareAppend, type StreamHead } from '@peeks/db';
import {
  decide,
  DEFAULT_CARD_FUNDS_HOLD_HOURS,
  evolveTransaction,
  LedgerRuleViolation,
  needsOf,
  transactionStream,
  type NewSerial,
  type SaleState,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { projectionOf } from './inline-projection.ts';
import type { Decision, LedgerRequest, ReadState } from './types.ts';

const SERIAL_BYTES = 10;
/** Random bytes for serials, drawn 4 KB at a time (as randomUUID does): a draw per serial was a fortieth of the API's CPU. */
let serialEntropy = Buffer.alloc(0);
let serialOffset = 0;

export const newCoinSerial: NewSerial = () => {
  if (serialOffset + SERIAL_BYTES > serialEntropy.length) {
    serialEntropy = randomBytes(4096);
    serialOffset = 0;
  }
  serialOffset += SERIAL_BYTES;
  return `PKS-${serialEntropy.toString('hex', serialOffset - SERIAL_BYTES, serialOffset).toUpperCase()}`;
};

/**
 * Decides one command against the state read for it: its events, chained
 * onto the transaction's stream, what they do to the read models, and the
 * jobs they leave; or the rule that refuses it. No I/O, apart from the
 * clock and the serials the settings give.
 */
export function decideRequest(
  request: LedgerRequest,
  state: Pick<ReadState, 'wallets' | 'coins'>,
  existing: { record: TransactionRecord; head: StreamHead } | null,
  sale: SaleState | null = null,
): Decision {
  const { command, settings, metadata } = request;
  const tx = existing?.record ?? null;
  const now = (settings.now ?? (() => new Date()))();
  const context = {
    now,
    newSerial: settings.newSerial ?? newCoinSerial,
    holdHours: settings.holdHours,
    cardFundsHoldHours: settings.cardFundsHoldHours ?? DEFAULT_CARD_FUNDS_HOLD_HOURS,
  };
  const coins = state.coins.get(needsOf(command, tx ?? sale?.record ?? null).coins?.walletId ?? '') ?? [];

  let events: TransactionEvent[];
  try {
    events = decide(command, { tx, sale, wallets: state.wallets, coins }, context);
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return { refused: error };
    throw error;
  }
  const prepared = prepareAppend(
    transactionStream(command.txId),
    existing?.head ?? { version: 0, hash: GENESIS_HASH },
    events,
    metadata,
    now,
  );
  let record = tx;
  const projections = events.map((event) => {
    record = evolveTransaction(record, event, now);
    return projectionOf(event, now, record);
  });
  if (!record) throw new Error(`${command.type} decided no events`);
  const jobs =
    settings.jobs?.causedBy(
      command.txId,
      events.map((event, index) => ({ ...event, version: prepared.chained[index]?.version ?? 0 })),
    ) ?? [];
  return { events, prepared, record, projections, jobs, queue: settings.jobs };
}
