import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { connectDatabase, migrateToLatest, openDatabaseServer, startProjectionRunner, type Database } from '@peeks/db';
import { coinsForCash, DEFAULT_RATE_MICROS, LedgerRuleViolation } from '@peeks/ledger';
import {
  executeLedgerCommand,
  groupCommitContention,
  groupCommitCounts,
  ledgerLog,
  openWallets,
  SEQUENCER_POLL_MS,
  sequencerLag,
} from '@peeks/ledger-store';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import {
  createScratchDatabase,
  followWalletChanges,
  percentile,
  postgresCpuByPid,
  postgresCpuSpent,
} from './bench-kit.ts';

/**
 * `npm run bench:ledger`: send-fund (P2P transfer) through the domain and
 * the store, no HTTP, at 1, 8 and 32 concurrent callers, beside a baseline
 * measured in the same run against the same server, in turns with the
 * ledger (see runRound): one round trip to a plpgsql function that locks
 * two rows in id order, updates both balances and inserts one event and
 * two entries. Transfers run between random pairs
 * of 10,000 funded wallets, with a hot wallet on one side of 10% of them.
 * The ledger runs in one pool for the whole run, as in a server process,
 * after a warm-up in which every wallet pays once (see warmUpLedger).
 * Runs against DATABASE_URL, else an embedded server under .data/bench.
 * BENCH_SECONDS sets the length of each measurement; BENCH_CALLERS (say "8")
 * and BENCH_WALLETS shorten a run while working on the ledger.
 *
 * A third side takes its turns too: the same callers spread over two
 * processes, this one and a child running the same ledger over the same
 * wallets (runPeer), as two API processes behind a load balancer are. Both
 * follow the commits' announcements, as API processes do. It prints the
 * two processes' rate against this one's alone, the CPU per transfer of
 * each process and of Postgres, and the share of batches whose commit met
 * another process's (see groupCommitContention). BENCH_LEDGER_SPLIT=same
 * adds a fourth side: the same number of callers in each of the two
 * processes, so that each process's batches are as large as the one
 * process's, and what is left of the gap is what the processes cost each
 * other (see SPLIT_SAME).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 1;
/** The baseline and the ledger take turns of this long (see runRound). */
const SLICE_SECONDS = 1;
/** BENCH_CALLERS=8 runs one round, for a quicker look while working on it. */
const CALLER_COUNTS = (process.env.BENCH_CALLERS ?? '1,8,32').split(',').map(Number);
/** The ledger's rate against the baseline's, by callers (issue 26). */
const TARGET_RATIOS = new Map([
  [8, 0.75],
  [32, 1.2],
]);
/** BENCH_KEEP_DATABASE=1 leaves the scratch database behind for a look by hand (with DATABASE_URL: the embedded server stops). */
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE === '1';
const TARGET_RSS_MB = 200;
/** BENCH_LEDGER_PROCESSES=1 leaves out the side over two processes. */
const TWO_PROCESSES = process.env.BENCH_LEDGER_PROCESSES !== '1';
/**
 * BENCH_LEDGER_SPLIT=same: beside the two processes sharing the callers
 * (half each), a turn of the two processes with all of them each (N + N),
 * against the one process with N. Sharing them halves each process's
 * batches as well as making the processes meet; with N each, the batches
 * are the size they are alone, and only the meeting is left.
 */
const SPLIT_SAME = process.env.BENCH_LEDGER_SPLIT === 'same';
if (!['same', 'half', undefined].includes(process.env.BENCH_LEDGER_SPLIT))
  throw new Error(`BENCH_LEDGER_SPLIT is "same" or "half" (the default), not "${process.env.BENCH_LEDGER_SPLIT}"`);
/** BENCH_LEDGER_LOG=off runs without the ledger log's sequencer, for a paired run against it (issue 38). */
const LEDGER_LOG = process.env.BENCH_LEDGER_LOG !== 'off';
/** The sequencer may trail the writes by at most this much at the bench's rate (issue 38). */
const TARGET_LAG_SECONDS = 2;

const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
/** The hot wallet's index: one past the random-pair wallets, so it is on a side only when chosen as hot. */
const HOT = WALLETS;
const HOT_SHARE = 0.1;
const SETUP_CONCURRENCY = 16;
/** The funding limit per purchase; at the default rate it buys 7,800 coins (780,000 CON minor units). */
const PURCHASE_CENTS = 500_00;
/** The hot wallet pays in about 5% of transfers, so it gets more than the others. */
const HOT_PURCHASES = 20;
/** Small transfers, so that a wallet funded once rarely runs dry; refusals are still counted. */
const MAX_TRANSFER = 500;
const HOLD_HOURS = 24;

const ownerOf = (index: number) => (index === HOT ? 'bench-hot' : `bench-${index}`);
const walletOf = (index: number) => `wallet:${ownerOf(index)}:CON`;
const randomWallet = () => Math.floor(Math.random() * WALLETS);
const randomAmount = () => 1 + Math.floor(Math.random() * MAX_TRANSFER);

/** Sender and receiver: two different random wallets, or the hot wallet and a random one (either side). */
function pickPair(): [from: number, to: number] {
  if (Math.random() < HOT_SHARE) {
    const other = randomWallet();
    return Math.random() < 0.5 ? [HOT, other] : [other, HOT];
  }
  const from = randomWallet();
  let to = randomWallet();
  while (to === from) to = randomWallet();
  return [from, to];
}

// ---------------------------------------------------------------------------
// Measuring

interface Measurement {
  perSecond: number;
  latenciesMs: number[];
  refused: number;
  /** What one transfer that went through cost, on average. */
  perTransfer: Costs;
}

/** Where the time and the disk go: CPU of this process and of the backends of the bench's database, and WAL written (server-wide). */
interface Costs {
  nodeCpuMs: number;
  postgresCpuMs: number;
  walBytes: number;
}

/** The counters behind Costs at one moment. */
interface CostReading {
  nodeCpuMs: number;
  postgresCpuByPid: Map<string, number>;
  walBytes: number;
}

async function readCosts(db: Kysely<Database>): Promise<CostReading> {
  const { rows } = await sql<{ wal: string; backends: string[] }>`
    SELECT (pg_current_wal_lsn() - '0/0')::text AS wal,
           ARRAY(SELECT pid::text FROM pg_stat_activity WHERE datname = current_database()) AS backends
  `.execute(db);
  const cpu = process.cpuUsage();
  const reading = rows[0];
  return {
    nodeCpuMs: (cpu.user + cpu.system) / 1000,
    postgresCpuByPid: postgresCpuByPid(new Set(reading?.backends)),
    walBytes: Number(reading?.wal),
  };
}

/** One side's transfers over the slices of time it ran in, added up. */
interface Tally {
  elapsedMs: number;
  latenciesMs: number[];
  refused: number;
  nodeCpuMs: number;
  postgresCpuMs: number;
  walBytes: number;
}

const emptyTally = (): Tally => ({
  elapsedMs: 0,
  latenciesMs: [],
  refused: 0,
  nodeCpuMs: 0,
  postgresCpuMs: 0,
  walBytes: 0,
});

/**
 * Runs `callers` loops of `transfer` for `seconds`, adding to `tally`. A
 * transfer resolves true when it went through, false when it was refused;
 * only the ones that went through count towards the rate and the latencies.
 */
async function runSlice(
  db: Kysely<Database>,
  callers: number,
  seconds: number,
  transfer: () => Promise<boolean>,
  tally: Tally,
): Promise<void> {
  const before = await readCosts(db);
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const before = performance.now();
        if (await transfer()) tally.latenciesMs.push(performance.now() - before);
        else tally.refused++;
      }
    }),
  );
  tally.elapsedMs += performance.now() - started;
  const after = await readCosts(db);
  tally.nodeCpuMs += after.nodeCpuMs - before.nodeCpuMs;
  tally.postgresCpuMs += postgresCpuSpent(before.postgresCpuByPid, after.postgresCpuByPid);
  tally.walBytes += after.walBytes - before.walBytes;
}

function measurementOf(tally: Tally): Measurement {
  const count = Math.max(1, tally.latenciesMs.length);
  return {
    perSecond: tally.latenciesMs.length / (tally.elapsedMs / 1000),
    latenciesMs: tally.latenciesMs.sort((a, b) => a - b),
    refused: tally.refused,
    perTransfer: {
      nodeCpuMs: tally.nodeCpuMs / count,
      postgresCpuMs: tally.postgresCpuMs / count,
      walBytes: tally.walBytes / count,
    },
  };
}

interface MemorySampler {
  /** The sampled peak so far, in MB. */
  peakMb: () => number;
  stop: () => { sampledMb: number; maxRssMb: number };
}

/**
 * The process's peak resident memory, sampled every 100 ms. A sample sees
 * only what the process has at that moment; maxRSS from the kernel (read at
 * the end) also catches peaks between samples.
 */
function startMemorySampler(): MemorySampler {
  let peak = process.memoryUsage().rss;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
    return peak / 2 ** 20;
  };
  const timer = setInterval(sample, 100);
  timer.unref();
  return {
    peakMb: sample,
    stop: () => {
      clearInterval(timer);
      return { sampledMb: sample(), maxRssMb: process.resourceUsage().maxRSS / 2 ** 10 };
    },
  };
}

/** Runs `work` for each index in [0, count) with at most `concurrency` in flight. */
async function forEachConcurrently(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

// ---------------------------------------------------------------------------
// The ledger

const settings = { holdHours: HOLD_HOURS };

/** What a group commit did between two readings: batches, those that read first, conflicted (version check) and locked. */
interface BatchCounts {
  batches: number;
  read: number;
  conflicted: number;
  locked: number;
}

const batchCountsOf = (db: Kysely<Database>): BatchCounts => ({
  ...groupCommitCounts(db),
  ...groupCommitContention(db),
});

const batchCountsSince = (before: BatchCounts, after: BatchCounts): BatchCounts => ({
  batches: after.batches - before.batches,
  read: after.read - before.read,
  conflicted: after.conflicted - before.conflicted,
  locked: after.locked - before.locked,
});

const addBatchCounts = (a: BatchCounts, b: BatchCounts): BatchCounts => ({
  batches: a.batches + b.batches,
  read: a.read + b.read,
  conflicted: a.conflicted + b.conflicted,
  locked: a.locked + b.locked,
});

const noBatches = (): BatchCounts => ({ batches: 0, read: 0, conflicted: 0, locked: 0 });

/** Asked of the child process: run `callers` transfer loops for `seconds` (or stop). */
type PeerRequest = { run: { callers: number; seconds: number } } | { stop: true };
/** What the child did in one run. */
interface PeerRun {
  transfers: number;
  refused: number;
  elapsedMs: number;
  cpuMs: number;
  counts: BatchCounts;
}

/** The child process's side (BENCH_LEDGER_PEER: the scratch database's URL): runs what it is asked until told to stop. */
async function runPeer(url: string): Promise<void> {
  const ledger = connectDatabase(url, { max: Math.max(...CALLER_COUNTS), preparedStatements: true });
  const stopFollowing = await followWalletChanges(url, ledger.db);
  await warmUpLedger(ledger.db, 'second process');
  const send = (message: unknown) =>
    new Promise<void>((resolve, reject) => {
      process.send?.(message, (error: Error | null) => {
        if (error) reject(error);
        else resolve();
      });
    });
  await new Promise<void>((resolve, reject) => {
    process.on('message', (request: PeerRequest) => {
      if ('stop' in request) {
        resolve();
        return;
      }
      const { callers, seconds } = request.run;
      const before = batchCountsOf(ledger.db);
      const cpuBefore = process.cpuUsage();
      const tally = { transfers: 0, refused: 0 };
      const started = performance.now();
      const deadline = started + seconds * 1000;
      Promise.all(
        Array.from({ length: callers }, async () => {
          while (performance.now() < deadline) {
            if (await ledgerTransfer(ledger.db)) tally.transfers++;
            else tally.refused++;
          }
        }),
      )
        .then(() => {
          const cpu = process.cpuUsage(cpuBefore);
          const run: PeerRun = {
            ...tally,
            elapsedMs: performance.now() - started,
            cpuMs: (cpu.user + cpu.system) / 1000,
            counts: batchCountsSince(before, batchCountsOf(ledger.db)),
          };
          return send(run);
        })
        .catch(reject);
    });
    void send({ ready: true });
  });
  await stopFollowing();
  await ledger.close();
  process.disconnect();
}

/** The child process running the same ledger (runPeer), and a way to ask it for a run. */
async function startPeer(
  url: string,
): Promise<{ run: (callers: number, seconds: number) => Promise<PeerRun>; stop: () => Promise<void> }> {
  const child: ChildProcess = fork(import.meta.filename, [], {
    env: { ...process.env, BENCH_LEDGER_PEER: url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: ((message: unknown) => void) | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  child.on('message', (message) => {
    waiting?.(message);
  });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      waiting = resolve;
      void exited.then(() => {
        reject(new Error('the second ledger process exited'));
      });
    });
  await next();
  return {
    run: async (callers, seconds) => {
      const answer = next();
      child.send({ run: { callers, seconds } } satisfies PeerRequest);
      return (await answer) as PeerRun;
    },
    stop: async () => {
      if (child.exitCode === null) child.send({ stop: true } satisfies PeerRequest);
      await exited;
    },
  };
}

async function purchase(db: Kysely<Database>, index: number): Promise<number> {
  const outcome = await executeLedgerCommand(
    db,
    {
      type: 'PurchaseCoins',
      txId: randomUUID(),
      ownerId: ownerOf(index),
      charge: { amount: PURCHASE_CENTS, currency: 'USD' },
      rateMicros: DEFAULT_RATE_MICROS,
      paymentMethod: { id: 'bench', type: 'CC' },
    },
    settings,
  );
  return outcome.record.amount;
}

/**
 * Opens and funds every wallet, the hot one with several purchases. Each
 * owner's opening and purchase share one transaction (one commit instead of
 * two). Returns the CON minor units purchased in all.
 */
async function setUpLedger(db: Kysely<Database>): Promise<number> {
  let purchased = 0;
  await forEachConcurrently(WALLETS + 1, SETUP_CONCURRENCY, (index) =>
    db.transaction().execute(async (trx) => {
      await openWallets(trx, ownerOf(index), { currencies: ['CON'] });
      const purchases = index === HOT ? HOT_PURCHASES : 1;
      for (let n = 0; n < purchases; n++) {
        // Not `purchased += await …`: that reads the sum before the await and loses the other callers' additions.
        const coins = await purchase(trx, index);
        purchased += coins;
      }
    }),
  );
  return purchased;
}

async function ledgerTransfer(db: Kysely<Database>, [from, to] = pickPair()): Promise<boolean> {
  try {
    await executeLedgerCommand(
      db,
      {
        type: 'Transfer',
        txId: randomUUID(),
        kind: 'P2P',
        fromOwnerId: ownerOf(from),
        toOwnerId: ownerOf(to),
        amount: randomAmount(),
        fee: 0,
        currency: 'CON',
        memo: null,
      },
      settings,
    );
    return true;
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return false;
    throw error;
  }
}

/** Money is conserved: the CON wallets hold, between them, exactly the coins purchased. */
async function conservedTotal(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    total: number;
  }>`SELECT coalesce(sum(total), 0)::bigint AS total FROM wallets WHERE currency = 'CON'`.execute(db);
  return rows[0]?.total ?? Number.NaN;
}

// ---------------------------------------------------------------------------
// The baseline

/**
 * The least a transfer can do in this schema's spirit, in one round trip:
 * lock both accounts in id order, move the balance, insert the event (a
 * copy of `events`, with its indexes) and two entries (a copy of
 * `ledger_entries`). The CHECK on balance refuses an overdraft.
 */
async function setUpBaseline(db: Kysely<Database>): Promise<void> {
  const balance = coinsForCash(PURCHASE_CENTS, 'USD', DEFAULT_RATE_MICROS);
  await sql`
    CREATE TABLE bench_accounts (id bigint PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
    CREATE TABLE bench_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING INDEXES INCLUDING CONSTRAINTS);
    CREATE TABLE bench_entries (LIKE ledger_entries INCLUDING DEFAULTS INCLUDING INDEXES INCLUDING CONSTRAINTS);
    CREATE FUNCTION bench_transfer(p_from bigint, p_to bigint, p_amount bigint, p_payload jsonb) RETURNS bigint
    LANGUAGE plpgsql AS $$
    DECLARE
      v_tx text := p_payload->>'txId';
      v_position bigint;
    BEGIN
      PERFORM 1 FROM bench_accounts WHERE id IN (p_from, p_to) ORDER BY id FOR UPDATE;
      UPDATE bench_accounts SET balance = balance - p_amount WHERE id = p_from;
      UPDATE bench_accounts SET balance = balance + p_amount WHERE id = p_to;
      INSERT INTO bench_events (stream_id, stream_version, type, data, metadata, created_at, prev_hash, hash)
      VALUES ('transaction-' || v_tx, 1, 'FundsTransferred', p_payload, '{"actor":"bench"}', now(), repeat('0', 64), repeat('f', 64))
      RETURNING position INTO v_position;
      INSERT INTO bench_entries (ledger_id, tx_id, account_id, entry_date, type, amount, currency, debit_credit, event_position)
      VALUES (v_tx || ':0', v_tx, p_payload->>'fromWalletId', now(), 'P2P_SENT', p_amount, 'CON', 'D', v_position),
             (v_tx || ':1', v_tx, p_payload->>'toWalletId', now(), 'P2P_RCVD', p_amount, 'CON', 'C', v_position);
      RETURN v_position;
    END
    $$;
  `.execute(db);
  // The same funding as the ledger's wallets: one purchase each, the hot one HOT_PURCHASES.
  await sql`
    INSERT INTO bench_accounts (id, balance)
    SELECT id, CASE WHEN id = ${HOT} THEN ${balance * HOT_PURCHASES}::bigint ELSE ${balance}::bigint END
    FROM generate_series(0, ${HOT}) AS id
  `.execute(db);
  await sql`ANALYZE bench_accounts`.execute(db);
}

/** A payload the size and shape of a FundsTransferred event's data. */
function transferPayload(from: number, to: number, amount: number) {
  const txId = randomUUID();
  const fromWalletId = walletOf(from);
  const toWalletId = walletOf(to);
  return {
    txId,
    kind: 'P2P',
    fromWalletId,
    fromOwnerId: ownerOf(from),
    toWalletId,
    toOwnerId: ownerOf(to),
    amount,
    fee: 0,
    currency: 'CON',
    hold: { amount, releaseAt: new Date(Date.now() + HOLD_HOURS * 3_600_000).toISOString() },
    memo: null,
    postings: [
      { account: fromWalletId, currency: 'CON', amount: -amount, type: 'P2P_SENT' },
      { account: toWalletId, currency: 'CON', amount, type: 'P2P_RCVD' },
    ],
  };
}

const isCheckViolation = (error: unknown) => error instanceof pg.DatabaseError && error.code === '23514';

async function baselineTransfer(db: Kysely<Database>): Promise<boolean> {
  const [from, to] = pickPair();
  const amount = randomAmount();
  try {
    await sql`SELECT bench_transfer(${from}, ${to}, ${amount}, ${JSON.stringify(transferPayload(from, to, amount))}::jsonb)`.execute(
      db,
    );
    return true;
  } catch (error) {
    if (isCheckViolation(error)) return false;
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Running and reporting

interface Round {
  callers: number;
  baseline: Measurement;
  ledger: Measurement;
  /** The share of the ledger's group-commit batches that read wallets before deciding (see KnownWallets). */
  ledgerReadShare: number;
  /** The ledger's batches in its own turns (alone: none should conflict; some may still find a wallet contended). */
  ledgerCounts: BatchCounts;
  /** The same callers over two processes on the same wallets; null when asked not to (BENCH_LEDGER_PROCESSES=1). */
  twoProcesses: TwoProcesses | null;
  /** As many callers in each of the two processes as the one has; null unless asked (BENCH_LEDGER_SPLIT=same). */
  twoProcessesSame: TwoProcesses | null;
  /** Peak RSS of the process up to the end of this round, to see which phase grows it. */
  peakRssMb: number;
}

/** The two-process side of a round: both processes' transfers over the slices it ran in. */
interface TwoProcesses {
  perSecond: number;
  /** This process's callers and the child's. */
  split: [number, number];
  /** CPU per transfer of each process (over its own transfers) and of Postgres (over both's). */
  cpuMs: { here: number; there: number; postgres: number };
  refused: number;
  /** Both group commits' batches, added up. */
  counts: BatchCounts;
  /** This process's batches and the child's. */
  byProcess: [BatchCounts, BatchCounts];
}

interface TwoTally {
  here: Tally;
  there: { transfers: number; refused: number; elapsedMs: number; cpuMs: number };
  counts: BatchCounts;
  byProcess: [BatchCounts, BatchCounts];
}

/**
 * One turn of the two-process side: this process runs `split[0]` callers,
 * the child `split[1]`, at the same time for `seconds`. This process's
 * slice reads the CPU of every backend of the bench's database, the
 * child's included.
 */
async function runTwoSlice(
  db: Kysely<Database>,
  peer: Peer,
  [here, there]: [number, number],
  seconds: number,
  tally: TwoTally,
): Promise<void> {
  const before = batchCountsOf(db);
  const elsewhere = peer.run(there, seconds);
  await runSlice(db, here, seconds, () => ledgerTransfer(db), tally.here);
  const ran = await elsewhere;
  const ours = batchCountsSince(before, batchCountsOf(db));
  tally.counts = addBatchCounts(tally.counts, addBatchCounts(ours, ran.counts));
  tally.byProcess = [addBatchCounts(tally.byProcess[0], ours), addBatchCounts(tally.byProcess[1], ran.counts)];
  tally.there.transfers += ran.transfers;
  tally.there.refused += ran.refused;
  tally.there.elapsedMs += ran.elapsedMs;
  tally.there.cpuMs += ran.cpuMs;
}

/** The callers of this process and of the child: half each, at least one each; or, `same`, all of them each. */
const splitCallers = (callers: number, same = false): [number, number] =>
  same ? [callers, callers] : [Math.ceil(callers / 2), Math.max(1, Math.floor(callers / 2))];

const noTwoTally = (): TwoTally => ({
  here: emptyTally(),
  there: { transfers: 0, refused: 0, elapsedMs: 0, cpuMs: 0 },
  counts: noBatches(),
  byProcess: [noBatches(), noBatches()],
});

function twoProcessesOf(split: [number, number], tally: TwoTally): TwoProcesses {
  const here = tally.here.latenciesMs.length;
  const { there } = tally;
  return {
    perSecond: here / (tally.here.elapsedMs / 1000) + there.transfers / (there.elapsedMs / 1000),
    split,
    cpuMs: {
      here: tally.here.nodeCpuMs / Math.max(1, here),
      there: there.cpuMs / Math.max(1, there.transfers),
      postgres: tally.here.postgresCpuMs / Math.max(1, here + there.transfers),
    },
    refused: tally.here.refused + there.refused,
    counts: tally.counts,
    byProcess: tally.byProcess,
  };
}

type Peer = Awaited<ReturnType<typeof startPeer>>;

/**
 * The ledger's side runs in one pool for the whole run, as in a server
 * process: its group commit keeps what it knows of wallets between
 * batches. Before the first round every wallet pays once, so that the
 * rounds measure a process that has seen its wallets, as one that has been
 * up a while has; each round prints how many batches still read first.
 */
async function warmUpLedger(ledger: Kysely<Database>, name = 'ledger'): Promise<void> {
  const started = performance.now();
  await forEachConcurrently(WALLETS + 1, 8, async (index) => {
    let to = randomWallet();
    while (to === index) to = randomWallet();
    await ledgerTransfer(ledger, [index, to]);
  });
  const { batches, read } = groupCommitCounts(ledger);
  console.warn(
    `${name} warm-up: each of the ${WALLETS + 1} wallets paid once, 8 at a time: ${((performance.now() - started) / 1000).toFixed(1)}s, ` +
      `${((read / batches) * 100).toFixed(0)}% of its batches read wallets first`,
  );
}

/**
 * One caller count: a warm-up of each side (plans cached, pool filled),
 * then the baseline, the ledger and the ledger over two processes in turns
 * of SLICE_SECONDS until each has run SECONDS. In turns, all meet the
 * machine in the same state: run one after the other, ten seconds each,
 * the ratio moved by ten points and more from one run to the next with the
 * speed of this shared machine.
 */
async function runRound(
  url: string,
  ledger: Kysely<Database>,
  peer: Peer | null,
  callers: number,
  memory: MemorySampler,
): Promise<Round> {
  const handle = connectDatabase(url, { max: callers, preparedStatements: true });
  try {
    const baseline = emptyTally();
    const measured = emptyTally();
    const two = noTwoTally();
    const twoSame = noTwoTally();
    const half = splitCallers(callers);
    const same = splitCallers(callers, true);
    const sameToo = peer !== null && SPLIT_SAME;
    await runSlice(handle.db, callers, WARM_UP_SECONDS, () => baselineTransfer(handle.db), emptyTally());
    await runSlice(ledger, callers, WARM_UP_SECONDS, () => ledgerTransfer(ledger), emptyTally());
    if (peer) await runTwoSlice(ledger, peer, half, WARM_UP_SECONDS, noTwoTally());
    if (peer && sameToo) await runTwoSlice(ledger, peer, same, WARM_UP_SECONDS, noTwoTally());
    let alone = noBatches();
    for (let turn = 0; turn < SECONDS / SLICE_SECONDS; turn++) {
      await runSlice(handle.db, callers, SLICE_SECONDS, () => baselineTransfer(handle.db), baseline);
      const before = batchCountsOf(ledger);
      await runSlice(ledger, callers, SLICE_SECONDS, () => ledgerTransfer(ledger), measured);
      alone = addBatchCounts(alone, batchCountsSince(before, batchCountsOf(ledger)));
      if (peer) await runTwoSlice(ledger, peer, half, SLICE_SECONDS, two);
      if (peer && sameToo) await runTwoSlice(ledger, peer, same, SLICE_SECONDS, twoSame);
    }
    return {
      callers,
      baseline: measurementOf(baseline),
      ledger: measurementOf(measured),
      ledgerReadShare: alone.read / Math.max(1, alone.batches),
      ledgerCounts: alone,
      twoProcesses: peer ? twoProcessesOf(half, two) : null,
      twoProcessesSame: sameToo ? twoProcessesOf(same, twoSame) : null,
      peakRssMb: memory.peakMb(),
    };
  } finally {
    await handle.close();
  }
}

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(8);
const rateAndLatencies = (m: Measurement) =>
  `${format(m.perSecond)} |${format(percentile(m.latenciesMs, 50), 2)} |${format(percentile(m.latenciesMs, 95), 2)} |${format(percentile(m.latenciesMs, 99), 2)} |`;

function printTable(rounds: readonly Round[]): void {
  console.warn('');
  console.warn(
    'callers | base/s   | p50 ms   | p95 ms   | p99 ms   | ledger/s | p50 ms   | p95 ms   | p99 ms   | ledger/base | refused (base/ledger) | batches read | peak RSS MB',
  );
  for (const { callers, baseline, ledger, ledgerReadShare, peakRssMb } of rounds) {
    const ratio = ledger.perSecond / baseline.perSecond;
    const refused = `${baseline.refused}/${ledger.refused}`.padStart(21);
    const read = `${format(ledgerReadShare * 100, 1)}%`.padStart(12);
    console.warn(
      `${String(callers).padStart(7)} |${rateAndLatencies(baseline)}${rateAndLatencies(ledger)}${format(ratio * 100, 1).padStart(11)}% | ${refused} | ${read} | ${format(peakRssMb)}`,
    );
  }
  console.warn('');
  console.warn('per transfer | callers | node CPU ms | postgres CPU ms | WAL bytes');
  for (const { callers, baseline, ledger } of rounds) {
    for (const [name, { perTransfer }] of [
      ['base', baseline],
      ['ledger', ledger],
    ] as const) {
      console.warn(
        `${name.padStart(12)} | ${String(callers).padStart(7)} | ${format(perTransfer.nodeCpuMs, 3).padStart(11)} | ${format(perTransfer.postgresCpuMs, 3).padStart(15)} | ${format(perTransfer.walBytes).padStart(9)}`,
      );
    }
  }
}

/** Opens and funds the wallets and builds the baseline's tables; prints how long the wallets took. */
async function setUp(url: string, memory: MemorySampler): Promise<number> {
  const setup = connectDatabase(url, { max: SETUP_CONCURRENCY });
  try {
    await migrateToLatest(setup.db);
    const started = performance.now();
    const purchased = await setUpLedger(setup.db);
    const seconds = (performance.now() - started) / 1000;
    console.warn(
      `set up ${WALLETS + 1} wallets (${WALLETS} + hot), ${WALLETS + HOT_PURCHASES} purchases, ${SETUP_CONCURRENCY} at a time: ` +
        `${seconds.toFixed(1)}s (${((WALLETS + 1) / seconds).toFixed(0)} owners/s), peak RSS so far ${memory.peakMb().toFixed(0)} MB`,
    );
    await setUpBaseline(setup.db);
    // Fresh statistics after the bulk load, so the first round's plans are the ones a running system would have.
    await sql`ANALYZE`.execute(setup.db);
    return purchased;
  } finally {
    await setup.close();
  }
}

async function checkConservation(url: string, purchased: number): Promise<void> {
  const check = connectDatabase(url, { max: 1 });
  try {
    const total = await conservedTotal(check.db);
    console.warn(
      `money conserved: CON wallets hold ${total} minor units, purchases bought ${purchased}: ${total === purchased ? 'yes' : 'NO'}`,
    );
    if (total !== purchased) throw new Error(`CON wallet totals ${total} differ from coins purchased ${purchased}`);
  } finally {
    await check.close();
  }
}

function printTwoProcesses(rounds: readonly Round[]): void {
  for (const { callers, ledger, ledgerCounts, twoProcesses, twoProcessesSame } of rounds) {
    if (twoProcesses) printTwo(callers, ledger, twoProcesses, `${callers} callers over two processes`, '');
    if (twoProcessesSame)
      printTwo(
        callers,
        ledger,
        twoProcessesSame,
        `${callers} callers in each of two processes`,
        `, ${callers} callers in each (BENCH_LEDGER_SPLIT=same)`,
      );
    if (twoProcesses || twoProcessesSame)
      console.warn(
        `one process alone, in its own turns: ${ledgerCounts.conflicted} of ${ledgerCounts.batches} batches conflicted, ${ledgerCounts.locked} decided under lock`,
      );
  }
}

/** One two-process side against the one process with `callers`; `label` follows "two processes / one". */
function printTwo(callers: number, ledger: Measurement, two: TwoProcesses, title: string, label: string): void {
  const { perSecond, split, cpuMs, refused, counts, byProcess } = two;
  const share = (count: number, of = counts) => `${((count / Math.max(1, of.batches)) * 100).toFixed(1)}%`;
  console.warn('');
  console.warn(
    `${title} on the same wallets (${split[0]} + ${split[1]}): ${perSecond.toFixed(0)} transfers/s, ` +
      `one process with ${callers} ${ledger.perSecond.toFixed(0)}/s; refused ${refused}`,
  );
  console.warn(`two processes / one${label}: ${((perSecond / ledger.perSecond) * 100).toFixed(1)}%`);
  console.warn(
    `CPU ms per transfer, two processes: process 1 ${cpuMs.here.toFixed(3)}, process 2 ${cpuMs.there.toFixed(3)}, postgres ${cpuMs.postgres.toFixed(3)} ` +
      `(one process: node ${ledger.perTransfer.nodeCpuMs.toFixed(3)}, postgres ${ledger.perTransfer.postgresCpuMs.toFixed(3)})`,
  );
  console.warn(
    `batches that conflicted: ${share(counts.conflicted)} (${counts.conflicted} of ${counts.batches}); ` +
      `decided under lock: ${share(counts.locked)}; read wallets first: ${share(counts.read)} ` +
      `(process 1 ${share(byProcess[0].read, byProcess[0])}, process 2 ${share(byProcess[1].read, byProcess[1])})`,
  );
}

function printVerdict(rounds: readonly Round[], memory: { sampledMb: number; maxRssMb: number }): void {
  const peakMb = Math.max(memory.sampledMb, memory.maxRssMb);
  console.warn(
    `peak RSS of the Node process: ${memory.sampledMb.toFixed(1)} MB sampled every 100 ms, ${memory.maxRssMb.toFixed(1)} MB maxRSS`,
  );
  const checks: [string, boolean][] = [];
  for (const [callers, target] of TARGET_RATIOS) {
    const round = rounds.find((each) => each.callers === callers);
    if (!round) continue;
    const ratio = round.ledger.perSecond / round.baseline.perSecond;
    checks.push([
      `at ${callers} callers the ledger reaches ${(ratio * 100).toFixed(1)}% of the baseline (target >= ${target * 100}%)`,
      ratio >= target,
    ]);
  }
  checks.push([`peak RSS ${peakMb.toFixed(1)} MB (target < ${TARGET_RSS_MB} MB)`, peakMb < TARGET_RSS_MB]);
  for (const [text, met] of checks) console.warn(`${met ? 'met    ' : 'NOT met'}  ${text}`);
}

/**
 * The ledger log's sequencer beside the writes, as a worker runs it (its own
 * connections, polling every SEQUENCER_POLL_MS), and the most it trailed them: the age
 * of the oldest event it had not reached, sampled every 250 ms.
 */
function runSequencer(url: string) {
  const pool = connectDatabase(url, { max: 2, preparedStatements: true });
  let errors = 0;
  const runner = startProjectionRunner(pool.db, [ledgerLog], {
    intervalMs: SEQUENCER_POLL_MS,
    onError: () => {
      errors += 1;
    },
  });
  let maxLag = 0;
  let lag = Number.POSITIVE_INFINITY;
  const sample = setInterval(() => {
    sequencerLag(pool.db, new Date())
      .then(({ seconds }) => {
        lag = seconds;
        maxLag = Math.max(maxLag, lag);
      })
      .catch(() => undefined);
  }, 250);
  /** Until the set-up's events are in the log (at most two minutes): the lag counts from then. */
  const caughtUp = async () => {
    for (let waited = 0; lag > 0 && waited < 120_000; waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    maxLag = 0;
  };
  const stop = async () => {
    clearInterval(sample);
    await runner.stop();
    const { rows } = await sql<{ leaves: number }>`SELECT count(*)::int AS leaves FROM ledger_log_leaves`.execute(
      pool.db,
    );
    await pool.close();
    return { maxLag, leaves: rows[0]?.leaves ?? 0, errors };
  };
  return { caughtUp, stop };
}

async function main(): Promise<void> {
  const memory = startMemorySampler();
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.resolve(import.meta.dirname, '../.data/bench') },
    log,
  );
  try {
    const scratch = await createScratchDatabase(server.url);
    try {
      const purchased = await setUp(scratch.url, memory);
      console.warn(
        `ledger send-fund vs one-round-trip plpgsql transfer, ${SECONDS}s each in turns of ${SLICE_SECONDS}s after ${WARM_UP_SECONDS}s warm-up, ` +
          `${HOT_SHARE * 100}% of transfers on a hot wallet`,
      );
      const rounds: Round[] = [];
      const ledger = connectDatabase(scratch.url, { max: Math.max(...CALLER_COUNTS), preparedStatements: true });
      const stopFollowing = await followWalletChanges(scratch.url, ledger.db);
      // The second process warms up first: this one then knows its wallets as they are when the rounds begin.
      const peer = TWO_PROCESSES ? await startPeer(scratch.url) : null;
      try {
        await warmUpLedger(ledger.db);
        const sequencer = LEDGER_LOG ? runSequencer(scratch.url) : null;
        await sequencer?.caughtUp();
        try {
          for (const callers of CALLER_COUNTS)
            rounds.push(await runRound(scratch.url, ledger.db, peer, callers, memory));
        } finally {
          const sequenced = await sequencer?.stop();
          console.warn(
            sequenced
              ? `ledger log: sequencer lag at most ${sequenced.maxLag.toFixed(2)} s (target ${TARGET_LAG_SECONDS} s), ` +
                  `${sequenced.leaves} events sequenced, ${sequenced.errors} errors`
              : 'ledger log: sequencer off (BENCH_LEDGER_LOG=off)',
          );
        }
      } finally {
        await peer?.stop();
        await stopFollowing();
        await ledger.close();
      }
      printTable(rounds);
      printTwoProcesses(rounds);
      console.warn('');
      await checkConservation(scratch.url, purchased);
      printVerdict(rounds, memory.stop());
    } finally {
      if (KEEP_DATABASE) {
        console.warn(`kept the bench database: ${scratch.url.replace(/\/\/[^@]*@/, '//')}`);
        await scratch.keep();
      } else {
        await scratch.drop();
      }
    }
  } finally {
    await server.stop();
  }
}

const peerOf = process.env.BENCH_LEDGER_PEER;
await (peerOf ? runPeer(peerOf) : main());
