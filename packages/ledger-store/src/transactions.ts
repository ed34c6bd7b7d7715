import { readStream, type Database } from '@peeks/db';
import { evolveTransaction, transactionStream, type TransactionEvent, type TransactionRecord } from '@peeks/ledger';
import type { Kysely } from 'kysely';

/** A transaction as its own stream tells it, or null if there is no such transaction. */
export async function loadTransaction(db: Kysely<Database>, txId: string): Promise<TransactionRecord | null> {
  const events = await readStream(db, transactionStream(txId));
  return events.reduce<TransactionRecord | null>((record, event) => evolveTransaction(record, event as unknown as TransactionEvent, event.createdAt), null);
}
