import { appendToStream, StreamVersionConflict, type Database, type EventMetadata, type StoredEvent } from '@peeks/db';
import {
  byPreference,
  decide,
  evolveTransaction,
  isFollowUp,
  LedgerRuleViolation,
  needsOf,
  transactionStream,
  type AccountId,
  type Coin,
  type LedgerCommand,
  type NewSerial,
  type TransactionEvent,
  type TransactionRecord,
} from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { projectTransactionEvent, type StoredTransactionEvent } from './inline-projection.ts';
import { loadTransaction } from './transactions.ts';
import { lockWallets } from './wallets.ts';

/** What the ledger takes from the world: the clock, serial numbers and the hold time. */
export interface LedgerSettings {
  holdHours: number;
  now?: () => Date;
  newSerial?: NewSerial;
}

export interface LedgerOutcome {
  record: TransactionRecord;
  events: StoredEvent[];
  /** The transaction already existed (a retry): nothing was done this time. */
  replayed: boolean;
}

export const newCoinSerial: NewSerial = () => `PKS-${randomBytes(10).toString('hex').toUpperCase()}`;

/**
 * Runs one ledger command: locks the wallets it names (in id order), loads
 * the coins it may spend, decides, appends the events to the transaction's
 * stream and projects them, all in one database transaction. Pass a
 * transaction as `db` to make the command part of a larger unit of work
 * (an idempotent request, a job). A command whose transaction id already
 * exists is a retry: it returns that transaction and moves nothing.
 */
export async function executeLedgerCommand(
  db: Kysely<Database>,
  command: LedgerCommand,
  settings: LedgerSettings,
  metadata: Partial<EventMetadata> = {},
): Promise<LedgerOutcome> {
  const run = async (trx: Kysely<Database>): Promise<LedgerOutcome> => {
    const existing = isFollowUp(command) ? await loadTransaction(trx, command.txId) : null;
    const needs = needsOf(command, existing);
    const wallets = await lockWallets(trx, needs.wallets);
    const coins = needs.coins ? await spendableCoins(trx, needs.coins.walletId, needs.coins.amount) : [];
    const now = (settings.now ?? (() => new Date()))();
    const context = { now, newSerial: settings.newSerial ?? newCoinSerial, holdHours: settings.holdHours };

    let events: TransactionEvent[];
    try {
      events = decide(command, { tx: existing, wallets, coins }, context);
    } catch (error) {
      // A retry of a command that went through may no longer pass the rules
      // (the money has moved on): it still gets its first outcome back.
      if (error instanceof LedgerRuleViolation && !isFollowUp(command)) return (await replay(trx, command.txId)) ?? Promise.reject(error);
      throw error;
    }

    const appended = await appendToStream(trx, transactionStream(command.txId), events, {
      expectedVersion: existing?.version ?? 0,
      metadata,
      now: () => now,
    }).catch((error: unknown) => {
      if (error instanceof StreamVersionConflict && !isFollowUp(command)) return null;
      throw error;
    });
    if (!appended) {
      const first = await replay(trx, command.txId);
      if (!first) throw new Error(`transaction ${command.txId} conflicted but cannot be read`);
      return first;
    }

    let record = existing;
    for (const stored of appended.events) {
      const event = stored as unknown as StoredTransactionEvent;
      record = evolveTransaction(record, event, stored.createdAt);
      await projectTransactionEvent(trx, 'public', event, record);
    }
    if (!record) throw new Error(`${command.type} decided no events`);
    return { record, events: appended.events, replayed: false };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

async function replay(db: Kysely<Database>, txId: string): Promise<LedgerOutcome | null> {
  const record = await loadTransaction(db, txId);
  return record ? { record, events: [], replayed: true } : null;
}

/**
 * The wallet's held coins in spending order (largest first), as many as it
 * takes to cover `amount`: a few usually do, so read a few, then more.
 */
export async function spendableCoins(db: Kysely<Database>, walletId: AccountId, amount: number): Promise<Coin[]> {
  for (let limit = 16; ; limit *= 8) {
    const { rows } = await sql<Coin>`
      SELECT serial, value FROM coins WHERE holder = ${walletId} AND status = 'held'
      ORDER BY value DESC, serial COLLATE "C" LIMIT ${limit}
    `.execute(db);
    const covered = rows.reduce((sum, coin) => sum + coin.value, 0) >= amount;
    if (covered || rows.length < limit) return rows.sort(byPreference);
  }
}
