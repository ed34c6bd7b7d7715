import {
  appendedEvents,
  GENESIS_HASH,
  prepareAppend,
  StreamVersionConflict,
  type AppendedRow,
  type Database,
  type EventMetadata,
  type PreparedAppend,
  type StoredEvent,
  type StreamHead,
  type WalletsTable,
} from '@peeks/db';
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
  type LedgerNeeds,
  type NewSerial,
  type TransactionEvent,
  type TransactionRecord,
  type WalletState,
} from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { spendingOf } from './batch-state.ts';
import { commitBatch, type CommittedWallet } from './commit-batch.ts';
import { groupCommitFor } from './group-commit.ts';
import { projectionOf, type EventProjection } from './inline-projection.ts';
import { readTransaction } from './transactions.ts';
import { walletStateOf } from './wallets.ts';

/** What the ledger takes from the world: the clock, serial numbers, the hold time and where later work goes. */
export interface LedgerSettings {
  holdHours: number;
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

/** Decisions against unlocked state before queueing on the wallets' locks instead. */
export const OPTIMISTIC_ATTEMPTS = 3;

/**
 * Runs one ledger command: reads the wallets it names and the coins it may
 * spend, decides, then appends the events to the transaction's stream and
 * projects them in one `ledger_commit` call, which goes ahead only if no
 * wallet changed since the read (see migration 0004). When one did, the
 * command is decided again; after a few such collisions (a hot wallet), it
 * runs in a transaction that locks the wallets as it reads them.
 *
 * A new transaction joins the process's group commit: commands in flight at
 * the same time on different wallets are read, decided and committed
 * together (see group-commit.ts). Pass a transaction as `db` to make the
 * command part of a larger unit of work (an idempotent request, a job): it
 * then runs alone and locks as it reads. A command whose transaction id
 * already exists is a retry: it returns that transaction and moves nothing.
 */
export async function executeLedgerCommand(
  db: Kysely<Database>,
  command: LedgerCommand,
  settings: LedgerSettings,
  metadata: Partial<EventMetadata> = {},
): Promise<LedgerOutcome> {
  if (db.isTransaction) return attempt(db, { command, settings, metadata }, { lock: true });
  if (isFollowUp(command)) return executeAlone(db, { command, settings, metadata });
  return groupCommitFor(db).submit({ command, settings, metadata });
}

/** One command on its own: optimistic attempts, then under lock. */
export async function executeAlone(db: Kysely<Database>, request: LedgerRequest): Promise<LedgerOutcome> {
  for (let attempts = 1; attempts <= OPTIMISTIC_ATTEMPTS; attempts++) {
    try {
      return await attempt(db, request, { lock: false });
    } catch (error) {
      if (!isSerializationFailure(error)) throw error;
    }
  }
  return db.transaction().execute((trx) => attempt(trx, request, { lock: true }));
}

async function attempt(
  db: Kysely<Database>,
  request: LedgerRequest,
  options: { lock: boolean },
): Promise<LedgerOutcome> {
  const { command } = request;
  const existing = isFollowUp(command) ? await readTransaction(db, command.txId) : null;
  const state = await readLedgerState(db, [needsOf(command, existing?.record ?? null)], options.lock);
  const decision = decideRequest(request, state, existing);
  if (decision.refused) return refusedOutcome(db, command, decision.refused);

  const { rows } = await commitDecisions(db, state, [decision]);
  const appended = appendedEvents(decision.prepared, rows);
  if (appended) return { record: decision.record, events: appended.events, replayed: false };

  // The stream moved on since the read: another call wrote this transaction.
  if (isFollowUp(command))
    throw new StreamVersionConflict(decision.prepared.streamId, existing?.head.version ?? 0, null);
  const first = await replay(db, command.txId);
  if (!first) throw new Error(`transaction ${command.txId} conflicted but cannot be read`);
  return first;
}

/** A decided command, ready to commit; or the rule that refused it. */
export type Decision =
  | { refused: LedgerRuleViolation }
  | {
      refused?: undefined;
      events: TransactionEvent[];
      prepared: PreparedAppend<TransactionEvent['type'], TransactionEvent['data']>;
      record: TransactionRecord;
      projections: EventProjection[];
      jobs: LedgerJob[];
      queue: LedgerJobs | undefined;
    };

/** Decides one command against the state read for it (pure, apart from the clock and serials it is given). */
export function decideRequest(
  request: LedgerRequest,
  state: Pick<ReadState, 'wallets' | 'coins'>,
  existing: { record: TransactionRecord; head: StreamHead } | null,
): Decision {
  const { command, settings, metadata } = request;
  const tx = existing?.record ?? null;
  const now = (settings.now ?? (() => new Date()))();
  const context = { now, newSerial: settings.newSerial ?? newCoinSerial, holdHours: settings.holdHours };
  const coins = state.coins.get(needsOf(command, tx).coins?.walletId ?? '') ?? [];

  let events: TransactionEvent[];
  try {
    events = decide(command, { tx, wallets: state.wallets, coins }, context);
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

/**
 * A refused command. A retry of a command that went through may no longer
 * pass the rules (the money has moved on): it still gets its first outcome.
 */
export async function refusedOutcome(
  db: Kysely<Database>,
  command: LedgerCommand,
  refused: LedgerRuleViolation,
): Promise<LedgerOutcome> {
  if (isFollowUp(command)) throw refused;
  const first = await replay(db, command.txId);
  if (!first) throw refused;
  return first;
}

/**
 * Appends and projects the decided commands in one `ledger_commit` call,
 * provided the wallets are still at `read.versions`; the rows of the events
 * written, and the wallets as the batch leaves them (written when `rows`
 * has every command's events). Raises 40001 (a wallet changed) or, for
 * several commands, PK001 (one of their transactions exists already), and
 * then writes nothing.
 * When the events leave jobs behind, the call and the enqueueing of the
 * jobs of the transactions it wrote share one database transaction.
 */
export async function commitDecisions(
  db: Kysely<Database>,
  read: Pick<ReadState, 'wallets' | 'versions'>,
  decisions: readonly Extract<Decision, { prepared: unknown }>[],
): Promise<{ rows: (AppendedRow & { stream_id: string })[]; wallets: CommittedWallet[] }> {
  const batch = commitBatch(read, decisions);
  const commit = async (db: Kysely<Database>) => {
    const { rows } = await sql<AppendedRow & { stream_id: string }>`
      SELECT stream_id, event_position, event_version, event_transaction_id
      FROM ledger_commit(${[...read.versions.keys()]}::text[], ${[...read.versions.values()]}::bigint[], ${JSON.stringify(batch)}::jsonb)
    `.execute(db);
    return { rows, wallets: batch.wallets };
  };
  if (decisions.every(({ jobs }) => jobs.length === 0)) return commit(db);
  const inTransaction = async (trx: Kysely<Database>) => {
    const committed = await commit(trx);
    const written = new Set(committed.rows.map((row) => row.stream_id));
    const byQueue = new Map<LedgerJobs, LedgerJob[]>();
    for (const { prepared, jobs, queue } of decisions) {
      if (!queue || jobs.length === 0 || !written.has(prepared.streamId)) continue;
      const ofQueue = byQueue.get(queue) ?? [];
      ofQueue.push(...jobs);
      byQueue.set(queue, ofQueue);
    }
    for (const [queue, jobs] of byQueue) await queue.enqueue(trx, jobs);
    return committed;
  };
  return db.isTransaction ? inTransaction(db) : db.transaction().execute(inTransaction);
}

async function replay(db: Kysely<Database>, txId: string): Promise<LedgerOutcome | null> {
  const existing = await readTransaction(db, txId);
  return existing ? { record: existing.record, events: [], replayed: true } : null;
}

/** A wallet row as `ledger_state` returns it (JSON: its timestamp stays text). */
type WalletStateRow = Omit<Selectable<WalletsTable>, 'opened_at'>;

export interface ReadState {
  wallets: Map<AccountId, WalletState>;
  /** The version of each wallet read, which the commit checks. */
  versions: Map<AccountId, number>;
  /** Per spender, its held coins covering the amount, largest first. */
  coins: Map<AccountId, Coin[]>;
  /** Per spender whose coins were not all read, the last coin read: every coin not read comes after it. */
  readUpTo: Map<AccountId, Coin>;
}

/**
 * The wallets the commands name and each spender's covering coins, in one
 * round trip. A spender named by several commands is read once, for the
 * sum of their amounts.
 */
export async function readLedgerState(
  db: Kysely<Database>,
  needs: readonly LedgerNeeds[],
  lock: boolean,
): Promise<ReadState> {
  const spending = spendingOf(needs);
  const { rows } = await sql<{
    state: { wallets: WalletStateRow[]; coins: Record<AccountId, Coin[]>; complete?: AccountId[] };
  }>`
    SELECT ledger_state(
      ${[...new Set(needs.flatMap((need) => need.wallets))]}::text[], ${lock},
      ${[...spending.keys()]}::text[], ${[...spending.values()]}::numeric[]
    ) AS state
  `.execute(db);
  const state = rows[0]?.state ?? { wallets: [], coins: {} };
  const coins = new Map(Object.entries(state.coins).map(([holder, held]) => [holder, held.sort(byPreference)]));
  const complete = new Set(state.complete);
  const readUpTo = new Map<AccountId, Coin>();
  for (const [holder, held] of coins) {
    const last = held.at(-1);
    if (last && !complete.has(holder)) readUpTo.set(holder, last);
  }
  return {
    wallets: new Map(state.wallets.map((row) => [row.wallet_id, walletStateOf(row)])),
    versions: new Map(state.wallets.map((row) => [row.wallet_id, row.version])),
    coins,
    readUpTo,
  };
}

export const isSerializationFailure = (error: unknown) => (error as { code?: unknown }).code === '40001';
