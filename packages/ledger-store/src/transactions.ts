import { readStream, type Database, type StreamHead } from '@peeks/db';
import {
  evolveTransaction,
  transactionStream,
  type Cash,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import type { Kysely } from 'kysely';

/** A transaction as its own stream tells it, and the stream's last event (what a follow-up chains onto). */
export async function readTransaction(
  db: Kysely<Database>,
  txId: string,
): Promise<{ record: TransactionRecord; head: StreamHead } | null> {
  const events = await readStream(db, transactionStream(txId));
  const last = events.at(-1);
  if (!last) return null;
  const record = events.reduce<TransactionRecord | null>(
    (folded, event) => evolveTransaction(folded, event as unknown as TransactionEvent, event.createdAt),
    null,
  );
  return record && { record, head: { version: last.streamVersion, hash: last.hash } };
}

/** A transaction as its own stream tells it, or null if there is no such transaction. */
export async function loadTransaction(db: Kysely<Database>, txId: string): Promise<TransactionRecord | null> {
  return (await readTransaction(db, txId))?.record ?? null;
}

/**
 * The cash a withdrawal was requested to pay out (its quote's amount, for
 * coins), as its own first event says; null for one that pays out its own
 * amount (cash, or coins requested before payouts were quoted) and for any
 * other transaction. The event is the one record of it.
 */
export async function requestedPayoutOf(db: Kysely<Database>, txId: string): Promise<Cash | null> {
  const [opening] = await readStream(db, transactionStream(txId), { maxCount: 1 });
  const event = opening as unknown as TransactionEvent | undefined;
  return event?.type === 'WithdrawalRequested' ? (event.data.payout ?? null) : null;
}
