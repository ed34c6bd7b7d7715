import {
  appendArguments,
  appendedEvents,
  GENESIS_HASH,
  prepareAppend,
  StreamVersionConflict,
  type AppendedRow,
  type Database,
  type EventMetadata,
  type StoredEvent,
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
  type TransactionRecord,
  type WalletState,
} from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { projectionOf } from './inline-projection.ts';
import { readTransaction } from './transactions.ts';
import { walletStateOf } from './wallets.ts';

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

/** Decisions against unlocked state before queueing on the wallets' locks instead. */
const OPTIMISTIC_ATTEMPTS = 3;

/**
 * Runs one ledger command: reads the wallets it names and the coins it may
 * spend, decides, then appends the events to the transaction's stream and
 * projects them in one `ledger_commit` call, which goes ahead only if no
 * wallet changed since the read (see migration 0004). When one did, the
 * command is decided again; after a few such collisions (a hot wallet), it
 * runs in a transaction that locks the wallets as it reads them.
 *
 * Pass a transaction as `db` to make the command part of a larger unit of
 * work (an idempotent request, a job): it then locks as it reads. A command
 * whose transaction id already exists is a retry: it returns that
 * transaction and moves nothing.
 */
export async function executeLedgerCommand(
  db: Kysely<Database>,
  command: LedgerCommand,
  settings: LedgerSettings,
  metadata: Partial<EventMetadata> = {},
): Promise<LedgerOutcome> {
  if (db.isTransaction) return attempt(db, command, settings, metadata, { lock: true });
  for (let attempts = 1; attempts <= OPTIMISTIC_ATTEMPTS; attempts++) {
    try {
      return await attempt(db, command, settings, metadata, { lock: false });
    } catch (error) {
      if (!isSerializationFailure(error)) throw error;
    }
  }
  return db.transaction().execute((trx) => attempt(trx, command, settings, metadata, { lock: true }));
}

async function attempt(
  db: Kysely<Database>,
  command: LedgerCommand,
  settings: LedgerSettings,
  metadata: Partial<EventMetadata>,
  options: { lock: boolean },
): Promise<LedgerOutcome> {
  const existing = isFollowUp(command) ? await readTransaction(db, command.txId) : null;
  const tx = existing?.record ?? null;
  const state = await readLedgerState(db, needsOf(command, tx), options.lock);
  const now = (settings.now ?? (() => new Date()))();
  const context = { now, newSerial: settings.newSerial ?? newCoinSerial, holdHours: settings.holdHours };

  let events;
  try {
    events = decide(command, { tx, wallets: state.wallets, coins: state.coins }, context);
  } catch (error) {
    // A retry of a command that went through may no longer pass the rules
    // (the money has moved on): it still gets its first outcome back.
    if (error instanceof LedgerRuleViolation && !isFollowUp(command)) return (await replay(db, command.txId)) ?? Promise.reject(error);
    throw error;
  }

  const stream = transactionStream(command.txId);
  const prepared = prepareAppend(stream, existing?.head ?? { version: 0, hash: GENESIS_HASH }, events, metadata, now);
  let record = tx;
  const projections = events.map((event) => {
    record = evolveTransaction(record, event, now);
    return projectionOf(event, now, record);
  });
  if (!record) throw new Error(`${command.type} decided no events`);

  const { rows } = await sql<AppendedRow>`
    SELECT event_position, event_version, event_transaction_id FROM ledger_commit(
      ${[...state.versions.keys()]}::text[], ${[...state.versions.values()]}::bigint[],
      ${appendArguments(prepared)}, ${JSON.stringify(projections)}::jsonb
    )
  `.execute(db);
  const appended = appendedEvents(prepared, rows);
  if (appended) return { record, events: appended.events, replayed: false };

  // The stream moved on since the read: another call wrote this transaction.
  if (isFollowUp(command)) throw new StreamVersionConflict(stream, existing?.head.version ?? 0, null);
  const first = await replay(db, command.txId);
  if (!first) throw new Error(`transaction ${command.txId} conflicted but cannot be read`);
  return first;
}

async function replay(db: Kysely<Database>, txId: string): Promise<LedgerOutcome | null> {
  const existing = await readTransaction(db, txId);
  return existing ? { record: existing.record, events: [], replayed: true } : null;
}

/** A wallet row as `ledger_state` returns it (JSON: its timestamp stays text). */
type WalletStateRow = Omit<Selectable<WalletsTable>, 'opened_at'>;

interface ReadState {
  wallets: Map<AccountId, WalletState>;
  /** The version of each wallet read, which the commit checks. */
  versions: Map<AccountId, number>;
  coins: Coin[];
}

/** The wallets a command names and the largest-first coins covering its amount, in one round trip. */
async function readLedgerState(db: Kysely<Database>, needs: LedgerNeeds, lock: boolean): Promise<ReadState> {
  const { rows } = await sql<{ state: { wallets: WalletStateRow[]; coins: Coin[] } }>`
    SELECT ledger_state(${[...new Set(needs.wallets)]}::text[], ${lock}, ${needs.coins?.walletId ?? null}, ${needs.coins?.amount ?? 0}) AS state
  `.execute(db);
  const state = rows[0]?.state ?? { wallets: [], coins: [] };
  return {
    wallets: new Map(state.wallets.map((row) => [row.wallet_id, walletStateOf(row)])),
    versions: new Map(state.wallets.map((row) => [row.wallet_id, row.version])),
    coins: state.coins.sort(byPreference),
  };
}

const isSerializationFailure = (error: unknown) => (error as { code?: unknown }).code === '40001';
