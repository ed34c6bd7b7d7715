import { readStream, type Database, type StreamHead } from '@peeks/db';
import { evolveTransaction, transactionStream, type TransactionEvent, type TransactionRecord } from '@peeks/ledger';
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
