import {
  readStream,
  schemaColumns,
  toStoredEvent,
  verifyAllStreams,
  type ChainReport,
  type Database,
  type StoredEvent,
} from '@peeks/db';
import { coinHoldingKinds, evolveTransaction, platformAccount, type TransactionRecord } from '@peeks/ledger';
import { randomBytes } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import {
  projectTransactionEvent,
  projectWalletEvent,
  type StoredTransactionEvent,
  type StoredWalletEvent,
} from './inline-projection.ts';
import { platformBalances } from './platform-balances.ts';
import { verifyLedgerLog, type LogReport, type OutsideCheckpoint } from './log/verify-log.ts';

/** The read models projected inline, which a rebuild must reproduce exactly. */
export const inlineTables = ['wallets', 'ledger_transactions', 'ledger_entries', 'coins'] as const;

export interface TableDifference {
  table: string;
  /** Rows the rebuild has and the live table lacks, and the other way round. */
  missingFromLive: number;
  extraInLive: number;
  samples: unknown[];
}

export interface LedgerReport {
  ok: boolean;
  eventsReplayed: number;
  chains: ChainReport;
  differences: TableDifference[];
  /** Each a sentence naming the rule and what breaks it. */
  invariantFailures: string[];
  /** The ledger log rebuilt and checked against its checkpoints (and one kept outside, if given). */
  log: LogReport;
}

class RollBack extends Error {
  readonly report: LedgerReport;
  constructor(report: LedgerReport) {
    super('verification done; rolling back the rebuild');
    this.report = report;
  }
}

/**
 * Proves the ledger from its log, in one repeatable-read snapshot so that
 * writers may carry on meanwhile: every hash chain, a replay of every event
 * into fresh tables compared row by row with the live ones, and the money
 * invariants. The fresh tables live in a scratch schema of the same
 * transaction, which is rolled back, so nothing is left behind.
 */
export async function verifyLedger(
  db: Kysely<Database>,
  options: {
    batchSize?: number;
    onProgress?: (progress: VerificationProgress) => void;
    /** The log's verifier key, and a checkpoint kept outside the database that the log must extend. */
    log?: { vkey?: string | undefined; outside?: OutsideCheckpoint | undefined };
  } = {},
): Promise<LedgerReport> {
  const told = options.onProgress ?? (() => undefined);
  try {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const eventsTotal = await ledgerEventCount(trx);
        told({ stage: 'chains', eventsReplayed: 0, eventsTotal });
        const chains = await verifyAllStreams(trx);
        const schema = `ledger_rebuild_${randomBytes(6).toString('hex')}`;
        await rebuildInto(trx, schema);
        const eventsReplayed = await replayLog(trx, schema, options.batchSize ?? 1000, (replayed) => {
          told({ stage: 'replay', eventsReplayed: replayed, eventsTotal });
        });
        told({ stage: 'compare', eventsReplayed, eventsTotal });
        const differences = await compareTables(trx, schema);
        told({ stage: 'invariants', eventsReplayed, eventsTotal });
        // The ledger log's checks count as invariants for the progress shown: one stage less to name.
        const invariantFailures = await checkInvariants(trx);
        const log = await verifyLedgerLog(trx, options.log);
        const ok =
          chains.breaks.length === 0 &&
          differences.length === 0 &&
          invariantFailures.length === 0 &&
          log.problems.length === 0;
        throw new RollBack({ ok, eventsReplayed, chains, differences, invariantFailures, log });
      });
  } catch (error) {
    if (error instanceof RollBack) return error.report;
    throw error;
  }
  throw new Error('unreachable: the verification transaction always rolls back');
}

/** Where a verification has got to: its stage, and during the replay how many of the ledger's events are done. */
export interface VerificationProgress {
  stage: 'chains' | 'replay' | 'compare' | 'invariants';
  eventsReplayed: number;
  eventsTotal: number;
}

const ledgerStreams = (eb: ExpressionBuilder<Database, 'events'>) =>
  eb.or([eb('stream_id', 'like', 'ledger-%'), eb('stream_id', 'like', 'wallet-%')]);

async function ledgerEventCount(trx: Kysely<Database>): Promise<number> {
  const { count } = await trx
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(ledgerStreams)
    .executeTakeFirstOrThrow();
  return count;
}

async function rebuildInto(trx: Kysely<Database>, schema: string): Promise<void> {
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(trx);
  for (const table of inlineTables) {
    await sql`CREATE TABLE ${sql.table(`${schema}.${table}`)} (LIKE ${sql.table(`public.${table}`)} INCLUDING ALL)`.execute(
      trx,
    );
  }
}

/**
 * Replays in position order. Position, not commit order, is right here:
 * two events that touch the same wallet are serialised by its row lock, and
 * the later one takes its position only after the earlier committed.
 * The projection SQL names its tables unqualified, so pointing search_path
 * at the scratch schema makes the live code write the rebuild.
 */
async function replayLog(
  trx: Kysely<Database>,
  schema: string,
  batchSize: number,
  onBatch: (replayed: number) => void,
): Promise<number> {
  const {
    rows: [saved],
  } = await sql<{ path: string }>`SELECT current_setting('search_path') AS path`.execute(trx);
  await sql`SELECT set_config('search_path', ${`${schema}, public`}, true)`.execute(trx);
  try {
    return await replayInto(trx, batchSize, onBatch);
  } finally {
    await sql`SELECT set_config('search_path', ${saved?.path ?? 'public'}, true)`.execute(trx);
  }
}

async function replayInto(
  trx: Kysely<Database>,
  batchSize: number,
  onBatch: (replayed: number) => void,
): Promise<number> {
  let after = 0;
  let replayed = 0;
  for (;;) {
    // Only the ledger's own streams build its read models; other streams in
    // the log (an operator's bitcoin-deposit decisions) are checked by their hash chains.
    const rows = await trx
      .selectFrom('events')
      .selectAll()
      .where('position', '>', after)
      .where(ledgerStreams)
      .orderBy('position')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return replayed;
    for (const row of rows) await replayEvent(trx, toStoredEvent(row));
    replayed += rows.length;
    onBatch(replayed);
    after = rows.at(-1)?.position ?? after;
  }
}

async function replayEvent(trx: Kysely<Database>, event: StoredEvent): Promise<void> {
  if (event.type === 'WalletOpened' || event.type === 'WalletClosed') {
    await projectWalletEvent(trx, event as StoredWalletEvent);
    return;
  }
  const before =
    event.streamVersion === 1 ? [] : await readStream(trx, event.streamId, { maxCount: event.streamVersion - 1 });
  const fold = (record: TransactionRecord | null, stored: StoredEvent) =>
    evolveTransaction(record, stored as unknown as StoredTransactionEvent, stored.createdAt);
  const record = fold(before.reduce<TransactionRecord | null>(fold, null), event);
  await projectTransactionEvent(trx, event as StoredTransactionEvent, record);
}

async function compareTables(trx: Kysely<Database>, schema: string): Promise<TableDifference[]> {
  const differences: TableDifference[] = [];
  for (const table of inlineTables) {
    // A wallet's version is a concurrency token, not a fact of the log:
    // wallets opened before it existed started at 0 whatever they had seen.
    const columns = sql.join(
      schemaColumns[table]
        .filter((column) => !(table === 'wallets' && column === 'version'))
        .map((column) => sql.ref(column)),
    );
    const live = sql`SELECT ${columns} FROM ${sql.table(`public.${table}`)}`;
    const rebuilt = sql`SELECT ${columns} FROM ${sql.table(`${schema}.${table}`)}`;
    const { rows } = await sql<{ side: 'live' | 'rebuilt'; row: unknown }>`
      (SELECT 'live' AS side, to_jsonb(x) AS row FROM (${live} EXCEPT ALL ${rebuilt}) x)
      UNION ALL
      (SELECT 'rebuilt' AS side, to_jsonb(x) AS row FROM (${rebuilt} EXCEPT ALL ${live}) x)
    `.execute(trx);
    if (rows.length === 0) continue;
    differences.push({
      table,
      extraInLive: rows.filter((row) => row.side === 'live').length,
      missingFromLive: rows.filter((row) => row.side === 'rebuilt').length,
      samples: rows.slice(0, 6),
    });
  }
  return differences;
}

const coinHolders = coinHoldingKinds.map((kind) => platformAccount(kind, 'CON'));

/** Rules that hold however the read models were produced; each query returns the rows that break one. */
const invariants: { rule: string; query: ReturnType<typeof sql<{ subject: string; detail: string }>> }[] = [
  {
    rule: 'a sale gives back no more than it took, and its sum of returns equals its returns not failed',
    query: sql`
      SELECT s.tx_id AS subject, format('amount %s, returned %s, its returns not failed sum to %s', s.amount, s.returned_amount, coalesce(r.total, 0)) AS detail
      FROM ledger_transactions s LEFT JOIN (
        SELECT parent_tx_id, sum(amount) AS total FROM ledger_transactions WHERE type = 'return' AND state <> 'failed' GROUP BY parent_tx_id
      ) r ON r.parent_tx_id = s.tx_id
      WHERE s.returned_amount > s.amount OR s.returned_amount <> coalesce(r.total, 0)`,
  },
  {
    rule: 'the postings of every event sum to zero per currency',
    query: sql`
      SELECT e.position::text AS subject, p->>'currency' || ' sums to ' || sum((p->>'amount')::bigint) AS detail
      FROM events e, jsonb_array_elements(e.data->'postings') p
      GROUP BY e.position, p->>'currency' HAVING sum((p->>'amount')::bigint) <> 0`,
  },
  {
    rule: 'no wallet is below zero, and hold = available − withdrawable ≥ 0, total = available + reserved',
    query: sql`
      SELECT wallet_id AS subject, format('total %s available %s withdrawable %s reserved %s', total, available, withdrawable, reserved) AS detail
      FROM wallets WHERE NOT (available >= 0 AND reserved >= 0 AND withdrawable >= 0 AND withdrawable <= available AND total = available + reserved)`,
  },
  {
    rule: "a wallet's total equals the sum of its ledger entries",
    query: sql`
      SELECT w.wallet_id AS subject, format('total %s, entries sum to %s', w.total, coalesce(s.net, 0)) AS detail
      FROM wallets w LEFT JOIN (
        SELECT account_id, sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END) AS net FROM ledger_entries GROUP BY account_id
      ) s ON s.account_id = w.wallet_id
      WHERE w.total <> coalesce(s.net, 0)`,
  },
  {
    rule: 'the coins in a CON wallet sum to its balance (held coins to available, reserved coins to reserved)',
    query: sql`
      SELECT w.wallet_id AS subject, format('available %s reserved %s; held coins %s reserved coins %s', w.available, w.reserved, coalesce(c.held, 0), coalesce(c.reserved, 0)) AS detail
      FROM wallets w LEFT JOIN (
        SELECT holder, sum(value) FILTER (WHERE status = 'held') AS held, sum(value) FILTER (WHERE status = 'reserved') AS reserved
        FROM coins GROUP BY holder
      ) c ON c.holder = w.wallet_id
      WHERE w.currency = 'CON' AND (w.available <> coalesce(c.held, 0) OR w.reserved <> coalesce(c.reserved, 0))`,
  },
  {
    rule: 'the coins kept by the fees and settlement accounts sum to their balances',
    query: sql`
      WITH balances AS (
        SELECT account_id, sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END) AS net FROM ledger_entries
        WHERE account_id = ANY(${coinHolders}::text[]) GROUP BY account_id
      ), held AS (
        SELECT holder, sum(value) AS held FROM coins WHERE status = 'held' AND holder = ANY(${coinHolders}::text[]) GROUP BY holder
      )
      SELECT coalesce(b.account_id, h.holder) AS subject, format('balance %s, coins %s', coalesce(b.net, 0), coalesce(h.held, 0)) AS detail
      FROM balances b FULL JOIN held h ON h.holder = b.account_id WHERE coalesce(b.net, 0) <> coalesce(h.held, 0)`,
  },
  {
    rule: 'a split coin is worth exactly what its two children are worth',
    query: sql`
      SELECT parent.serial AS subject, format('value %s, children %s (%s of them)', parent.value, coalesce(sum(child.value), 0), count(child.serial)) AS detail
      FROM coins parent LEFT JOIN coins child ON child.parent_serial = parent.serial
      WHERE parent.status = 'split' GROUP BY parent.serial, parent.value
      HAVING coalesce(sum(child.value), 0) <> parent.value OR count(child.serial) <> 2`,
  },
  {
    rule: 'a coin split from a coin bought by card matures when its parent does',
    query: sql`
      SELECT child.serial AS subject, format('matures at %s, its parent %s at %s', child.matures_at, parent.serial, parent.matures_at) AS detail
      FROM coins child JOIN coins parent ON parent.serial = child.parent_serial
      WHERE child.matures_at IS DISTINCT FROM parent.matures_at`,
  },
  {
    rule: 'a withdrawal reserves only coins matured when it was requested',
    query: sql`
      SELECT e.data->>'txId' AS subject, format('reserved %s, which matures at %s', c.serial, c.matures_at) AS detail
      FROM events e CROSS JOIN jsonb_array_elements(e.data->'coins') step JOIN coins c ON c.serial = step->>'serial'
      WHERE e.type = 'WithdrawalRequested' AND step->>'action' = 'reserve' AND c.matures_at > e.created_at`,
  },
  {
    rule: 'a cleared deposit converts the cash it was entered with, through the exchange of that currency',
    query: sql`
      SELECT c.data->>'txId' AS subject, format('cleared %s into %s, entered %s', c.data->'payment', x.postings, e.data->'payment') AS detail
      FROM events c
      JOIN events e ON e.stream_id = c.stream_id AND e.stream_version = 1
      CROSS JOIN LATERAL (
        SELECT jsonb_agg(p) AS postings, coalesce(sum((p->>'amount')::bigint), 0) AS amount FROM jsonb_array_elements(c.data->'postings') p
        WHERE p->>'account' = 'platform:exchange:' || (c.data->'payment'->>'currency')
      ) x
      WHERE c.type = 'DepositCleared' AND c.data ? 'payment'
        AND (e.type <> 'DepositEntered' OR c.data->'payment' <> e.data->'payment' OR x.amount <> (c.data->'payment'->>'amount')::bigint)`,
  },
  {
    rule: 'platform balances equal the postings up to their checkpoint',
    query: sql`
      WITH checkpoint AS (
        SELECT transaction_id, position FROM projection_checkpoints WHERE name = ${platformBalances.name}
      ), expected AS (
        SELECT p->>'account' AS account_id, sum((p->>'amount')::bigint) AS balance, count(*) AS entries
        FROM events e CROSS JOIN checkpoint c, jsonb_array_elements(e.data->'postings') p
        WHERE (e.transaction_id, e.position) <= (c.transaction_id, c.position) AND p->>'account' LIKE 'platform:%'
        GROUP BY p->>'account'
      )
      SELECT coalesce(x.account_id, b.account_id) AS subject,
             format('projected %s over %s entries, postings %s over %s', b.balance, b.entries, x.balance, x.entries) AS detail
      FROM expected x FULL JOIN platform_balances b ON b.account_id = x.account_id
      WHERE x.balance IS DISTINCT FROM b.balance OR x.entries IS DISTINCT FROM b.entries`,
  },
];

async function checkInvariants(trx: Kysely<Database>): Promise<string[]> {
  const failures: string[] = [];
  for (const { rule, query } of invariants) {
    const { rows } = await query.execute(trx);
    for (const row of rows.slice(0, 20)) failures.push(`${rule}: ${row.subject}: ${row.detail}`);
    if (rows.length > 20) failures.push(`${rule}: and ${rows.length - 20} more`);
  }
  return failures;
}
