import type { Database, EventMetadata, PreparedAppend, StoredEvent } from '@peeks/db';
import type {
  AccountId,
  Coin,
  LedgerCommand,
  LedgerRuleViolation,
  NewSerial,
  TransactionEvent,
  TransactionRecord,
  WalletBalance,
  WalletState,
} from '@peeks/ledger';
import type { Kysely } from 'kysely';
import type { EventProjection } from './inline-projection.ts';

/** What the ledger takes from the world: the clock, serial numbers, the hold times and where later work goes. */
export interface LedgerSettings {
  holdHours: number;
  /** How long coins bought by card take to mature before they can be withdrawn as cash; unset: the product's default. */
  cardFundsHoldHours?: number;
  now?: () => Date;
  newSerial?: NewSerial;
  jobs?: LedgerJobs;
}

/** A piece of later work an event leaves behind: release a hold, pay out a withdrawal, tell a webhook. */
export interface LedgerJob {
  queue: string;
  /** Derived from the event, so the same event can never enqueue it twice. */
  id: string;
  data: Record<string, unknown>;
  startAfter?: Date;
}

/**
 * The job queue as the ledger sees it. The jobs of a transaction's events
 * are enqueued in the database transaction that appends those events, so
 * no committed event lacks its jobs and a command that rolls back leaves
 * none behind.
 */
export interface LedgerJobs {
  causedBy(txId: string, events: readonly (TransactionEvent & { version: number })[]): LedgerJob[];
  enqueue(db: Kysely<Database>, jobs: readonly LedgerJob[]): Promise<void>;
}

export interface LedgerOutcome {
  record: TransactionRecord;
  events: StoredEvent[];
  /** The transaction already existed (a retry): nothing was done this time. */
  replayed: boolean;
}

/** One command to run, with what it runs under. */
export interface LedgerRequest {
  command: LedgerCommand;
  settings: LedgerSettings;
  metadata: Partial<EventMetadata>;
}

/** What a command is decided against: the wallets it names and its spender's first coins (see read-state.ts). */
export interface ReadState {
  wallets: Map<AccountId, WalletState>;
  /** The version of each wallet read, which the commit checks. */
  versions: Map<AccountId, number>;
  /** Per spender, its held coins covering the amount, largest first. */
  coins: Map<AccountId, Coin[]>;
  /** Per spender whose coins were not all read, the last coin read: every coin not read comes after it. */
  readUpTo: Map<AccountId, Coin>;
}

/** A decided command, ready to commit. */
export interface Decided {
  refused?: undefined;
  events: TransactionEvent[];
  prepared: PreparedAppend<TransactionEvent['type'], TransactionEvent['data']>;
  record: TransactionRecord;
  projections: EventProjection[];
  jobs: LedgerJob[];
  queue: LedgerJobs | undefined;
}

/** A decided command, or the rule that refused it. */
export type Decision = Decided | { refused: LedgerRuleViolation };

/** A wallet's row as a batch leaves it. */
export type CommittedWallet = WalletBalance & { wallet_id: AccountId; version: number };
