import { appendedEvents, type Database } from '@peeks/db';
import { needsOf, type AccountId, type LedgerNeeds, type LedgerRuleViolation } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { BatchState } from './batch-state.ts';
import { commitDecisions, isSerializationFailure } from './commit.ts';
import { decideRequest } from './decide.ts';
import { KnownWallets, withRead } from './known-wallets.ts';
import { executeAlone, OPTIMISTIC_ATTEMPTS } from './lone-path.ts';
import { readLedgerState } from './read-state.ts';
import { refusedOutcome } from './replay.ts';
import type { CommittedWallet, Decided, LedgerOutcome, LedgerRequest, ReadState } from './types.ts';

/**
 * Commands per batch at most, and batches committing side by side: two
 * batches of 16 did best in paired bench:ledger runs at 8 and 32 callers
 * (docs/architecture/ledger-store.md says why).
 */
const MAX_BATCH = 16;
const MAX_IN_FLIGHT = 2;
/**
 * The smallest batch the limit shrinks to while commits collide with other
 * processes' (see GroupCommit.batchLimit).
 */
const MIN_BATCH = 2;
/** Wallets whose state the group commit keeps between batches (see KnownWallets): some hundreds of bytes each. */
const KNOWN_WALLETS = 20_000;
/**
 * How long a wallet another process moved under a batch is contended: its
 * batches go straight to the locked path (see GroupCommit.#commitLocked)
 * rather than try the version check first. Each announcement of a move
 * elsewhere keeps it so; a quiet wallet is tried optimistically again.
 */
const CONTENDED_MS = 1_000;

/**
 * Commands waiting for a batch at most, unless the process says otherwise
 * (limitLedgerQueue, LEDGER_QUEUE_LIMIT): at most about a second of waiting
 * at the slowest rate a full queue drained at on a two-core machine, in
 * about 2 MB (docs/architecture/ledger-store.md). A command that would
 * wait longer is better told to come back.
 */
export const DEFAULT_QUEUE_LIMIT = 1_000;

/** The group commit's queue is full: the command was not run; the caller may try again shortly. */
export class LedgerQueueFull extends Error {
  readonly limit: number;
  /** When to try again: a full queue drains in about a second (see DEFAULT_QUEUE_LIMIT). */
  readonly retryAfterSeconds = 1;
  constructor(limit: number) {
    super(`The ledger is busy: ${limit} commands are waiting already. Nothing was done; try again in a second.`);
    this.name = 'LedgerQueueFull';
    this.limit = limit;
  }
}

/** A batch decided and committed, not yet answered: `settle` answers it once the commit is durable. */
interface DecidedBatch {
  undecided: Submission[];
  settle: () => void;
}

interface Submission extends LedgerRequest {
  needs: LedgerNeeds;
  /** The wallets and coin holders the command reads: no two batches in flight share one. */
  accounts: AccountId[];
  collisions: number;
  /** Answered, or handed to the lone path: a failed commit must not send it round again. */
  settled: boolean;
  /** Refused on wallets as known: to be decided again on wallets as read. */
  confirmRefusal: boolean;
  resolve: (outcome: LedgerOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for new transactions: the commands submitted while a batch
 * commits are decided together and committed in one `ledger_commit` call
 * and one database transaction. That divides what costs most per command
 * (round trips, statements, commits) by the batch size. They are decided
 * on the wallets as the group commit's last batch on them left them (see
 * KnownWallets); only the wallets it does not know are read first, in one
 * `ledger_state` call.
 *
 * Batches in flight share no wallet or coin holder. Inside a batch,
 * commands are decided in turn, each against what the ones before it leave
 * (see BatchState), so that a busy wallet moves many times a batch instead
 * of once; a refusal is answered only once the batch has committed, since
 * it may rest on a command of the batch. The commit checks every wallet's
 * version, so a change from elsewhere (another process) is never
 * overwritten: the batch is decided again with its wallets locked, waiting
 * for the other process rather than failing (#commitLocked). A batch that
 * fails for any other reason (one of its transactions exists already, say)
 * runs command by command.
 */
class GroupCommit {
  readonly #db: Kysely<Database>;
  #pending: Submission[] = [];
  readonly #busy = new Set<AccountId>();
  readonly #known = new KnownWallets(KNOWN_WALLETS);
  /** How this group commit's commits name themselves in their announcements: its own need not be heeded. */
  readonly #origin = randomBytes(9).toString('base64url');
  #inFlight = 0;
  #scheduled = false;
  /**
   * Commands per batch now: halved when a commit collides with another
   * process's (the version check, 40001), and grown by one with each batch
   * that commits. A batch fails whole, and the more wallets it names the
   * likelier another process's batch names one of them: two API processes
   * paying among the same few hundred wallets in batches of 16 collided
   * nearly every time. Alone, a process never collides, and keeps MAX_BATCH.
   */
  #batchLimit = MAX_BATCH;
  queueLimit = DEFAULT_QUEUE_LIMIT;
  /** Wallets moved elsewhere under a batch lately, and until when their batches take the locked path; oldest first. */
  readonly #contended = new Map<AccountId, number>();
  /**
   * Batches run, those that read wallets first (how well what is known
   * serves), commands refused for a full queue, commits the version check
   * refused (a wallet moved elsewhere), and batches decided and committed
   * with their wallets locked.
   */
  readonly counts = { batches: 0, read: 0, turnedAway: 0, conflicted: 0, locked: 0 };

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Commands waiting for a batch: submitted, or sent round again, and not yet taken. */
  get queued(): number {
    return this.#pending.length;
  }

  submit(request: LedgerRequest): Promise<LedgerOutcome> {
    // Commands sent round again (collisions, undecided) go back whatever the length: they were admitted already.
    if (this.#pending.length >= this.queueLimit) {
      this.counts.turnedAway += 1;
      return Promise.reject(new LedgerQueueFull(this.queueLimit));
    }
    const needs = needsOf(request.command, null);
    const accounts = [...new Set([...needs.wallets, ...(needs.coins ? [needs.coins.walletId] : [])])];
    return new Promise((resolve, reject) => {
      this.#pending.push({
        ...request,
        needs,
        accounts,
        collisions: 0,
        settled: false,
        confirmRefusal: false,
        resolve,
        reject,
      });
      this.#schedule();
    });
  }

  /** On the next turn of the event loop, so that commands submitted together start together. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < MAX_IN_FLIGHT) {
      // Shared out over the free slots: batches committing side by side use more than one database core.
      const batch = this.#take(
        Math.min(this.#batchLimit, Math.ceil(this.#pending.length / (MAX_IN_FLIGHT - this.#inFlight))),
      );
      if (batch.length === 0) return;
      this.#inFlight += 1;
      for (const submission of batch) for (const account of submission.accounts) this.#busy.add(account);
      void this.#run(batch).finally(() => {
        this.#inFlight -= 1;
        for (const submission of batch) for (const account of submission.accounts) this.#busy.delete(account);
        this.#schedule();
      });
    }
  }

  /**
   * The oldest pending commands that share no account with a batch in
   * flight, and one of each transaction: a second, concurrent copy of one
   * (a retry) would make the whole batch run command by command.
   */
  #take(limit: number): Submission[] {
    const taken: Submission[] = [];
    const left: Submission[] = [];
    const transactions = new Set<string>();
    for (const submission of this.#pending) {
      if (
        taken.length < limit &&
        !transactions.has(submission.command.txId) &&
        submission.accounts.every((account) => !this.#busy.has(account))
      ) {
        taken.push(submission);
        transactions.add(submission.command.txId);
      } else {
        left.push(submission);
      }
    }
    this.#pending = left;
    return taken;
  }

  async #run(batch: Submission[]): Promise<void> {
    try {
      // Not `this.#pending.unshift(...await …)`: that takes the array before the await, and #take replaces it meanwhile.
      const undecided = await this.#commit(batch);
      this.#batchLimit = Math.min(MAX_BATCH, this.#batchLimit + 1);
      this.#pending.unshift(...undecided);
    } catch (error) {
      const accounts = batch.flatMap((submission) => submission.accounts);
      const unsettled = batch.filter((submission) => !submission.settled);
      if (isSerializationFailure(error)) {
        this.#batchLimit = Math.max(MIN_BATCH, Math.floor(this.#batchLimit / 2));
        // Refused even under lock (a transaction's stream moved on, say): the next batch reads them all, and sees which.
        this.#known.doubt(accounts);
        const again = unsettled.filter((submission) => ++submission.collisions < OPTIMISTIC_ATTEMPTS);
        this.#pending.unshift(...again);
        for (const submission of unsettled.filter((each) => !again.includes(each))) this.#alone(submission);
      } else {
        // Whether it committed is not known: nothing known of its wallets is to be trusted.
        this.#known.forget(accounts);
        for (const submission of unsettled) this.#alone(submission);
      }
    }
  }

  /**
   * Reads, decides and commits a batch; the commands it could not decide,
   * for the next one. Optimistic first: decided on the wallets as known or
   * read without lock, committed in one round trip if none moved. When one
   * did (another process committed it), or lately did (contended), the
   * batch is decided again under lock (#commitLocked), where it waits for
   * the other process instead of failing.
   */
  async #commit(batch: Submission[]): Promise<Submission[]> {
    this.counts.batches += 1;
    if (this.#isContended(batch)) return this.#commitLocked(batch, null);
    const toConfirm = new Set(batch.flatMap((submission) => (submission.confirmRefusal ? submission.accounts : [])));
    const { known, toRead } = this.#known.recall(
      batch.map((submission) => submission.needs),
      toConfirm,
    );
    let read = known;
    if (toRead.length > 0) {
      this.counts.read += 1;
      const fresh = await readLedgerState(this.#db, toRead, false);
      this.#known.noteRead(fresh.versions);
      read = withRead(known, fresh);
    }
    let decided: DecidedBatch;
    try {
      decided = await this.#decideAndCommit(this.#db, batch, read, known.wallets);
    } catch (error) {
      if (!isSerializationFailure(error)) throw error;
      // Nothing was written and nothing answered: the whole batch is decided again, under lock.
      this.counts.conflicted += 1;
      this.#batchLimit = Math.max(MIN_BATCH, Math.floor(this.#batchLimit / 2));
      return this.#commitLocked(batch, read.versions, toRead.length > 0);
    }
    decided.settle();
    return decided.undecided;
  }

  /**
   * The batch in one database transaction: its wallets locked in id order
   * as they are read (ledger_state), decided on that state, committed. No
   * other commit can move them meanwhile, so the version check cannot fail;
   * another process's batch on the same wallets waits for this one's lock,
   * and this one for its. Every locker takes its wallets in one statement in
   * the same order, so they cannot deadlock. A refusal here rests on the
   * wallets as they are, and is answered. The answers go out once the
   * transaction has committed. `tried`: the versions an optimistic commit
   * found moved, whose wallets are contended from now on (`readBefore`: it
   * had read some wallets first).
   */
  async #commitLocked(
    batch: Submission[],
    tried: ReadonlyMap<AccountId, number> | null,
    readBefore = false,
  ): Promise<Submission[]> {
    this.counts.locked += 1;
    // A batch counts as read once, whether it read before its optimistic attempt or only here.
    if (!readBefore) this.counts.read += 1;
    const accounts = batch.flatMap((submission) => submission.accounts);
    this.#known.doubt(accounts);
    const decided = await this.#db.transaction().execute(async (trx) => {
      const read = await readLedgerState(
        trx,
        batch.map((submission) => submission.needs),
        true,
      );
      this.#known.noteRead(read.versions);
      if (tried) {
        const until = performance.now() + CONTENDED_MS;
        for (const [walletId, version] of read.versions)
          if (tried.has(walletId) && tried.get(walletId) !== version) this.#contend(walletId, until);
      }
      return this.#decideAndCommit(trx, batch, read, new Map());
    });
    decided.settle();
    return decided.undecided;
  }

  /**
   * Decides the batch in turn against `read` and commits what was decided
   * through `db`; `settle` answers the commands and remembers the wallets,
   * to be called once the commit is durable. `known`: the wallets decided on
   * as remembered rather than read, whose refusals are confirmed on a read.
   */
  async #decideAndCommit(
    db: Kysely<Database>,
    batch: Submission[],
    read: ReadState,
    known: ReadonlyMap<AccountId, unknown>,
  ): Promise<DecidedBatch> {
    const state = new BatchState(read);
    const decided: { submission: Submission; decision: Decided }[] = [];
    const refused: { submission: Submission; refusal: LedgerRuleViolation }[] = [];
    const undecided: Submission[] = [];
    for (const submission of batch) {
      const against = state.stateFor(submission.needs);
      if (!against) {
        undecided.push(submission);
        continue;
      }
      const decision = decideRequest(submission, against, null);
      if (decision.refused) {
        refused.push({ submission, refusal: decision.refused });
      } else {
        decided.push({ submission, decision });
        state.apply(decision.events);
      }
    }

    let commit: Awaited<ReturnType<typeof commitDecisions>> = { rows: [], wallets: [] };
    if (decided.length > 0) {
      const wallets = new Set(decided.flatMap(({ submission }) => submission.accounts));
      const versions = new Map([...read.versions].filter(([wallet]) => wallets.has(wallet)));
      commit = await commitDecisions(
        db,
        { wallets: read.wallets, versions },
        decided.map(({ decision }) => decision),
        this.#origin,
      );
    }
    const settle = () => {
      let wroteAll = true;
      for (const { submission, decision } of decided) {
        const appended = appendedEvents(
          decision.prepared,
          commit.rows.filter((row) => row.stream_id === decision.prepared.streamId),
        );
        submission.settled = true;
        // Alone in its batch, a transaction that exists already writes nothing: the lone path replays it.
        if (appended) submission.resolve({ record: decision.record, events: appended.events, replayed: false });
        else this.#alone(submission);
        wroteAll &&= appended !== null;
      }
      if (wroteAll) this.#remember(read, state, commit.wallets);
      else this.#known.forget(read.wallets.keys());

      for (const { submission, refusal } of refused) {
        // Refused after a retry of an existing transaction was decided as new: the money that retry seemed to take is still there.
        // Refused on what was known rather than read: the money may have come in since.
        if (!wroteAll || submission.accounts.some((account) => known.has(account))) {
          submission.confirmRefusal = true;
          undecided.push(submission);
          continue;
        }
        submission.settled = true;
        refusedOutcome(this.#db, submission.command, refusal).then(submission.resolve, submission.reject);
      }
    };
    return { undecided, settle };
  }

  /** Whether the batch names a wallet lately moved elsewhere under one of this group commit's batches. */
  #isContended(batch: readonly Submission[]): boolean {
    if (this.#contended.size === 0) return false;
    const now = performance.now();
    for (const [walletId, until] of this.#contended) {
      if (until > now) break;
      this.#contended.delete(walletId);
    }
    return batch.some((submission) => submission.accounts.some((account) => this.#contended.has(account)));
  }

  #contend(walletId: AccountId, until: number): void {
    this.#contended.delete(walletId);
    this.#contended.set(walletId, until);
  }

  /** The batch's wallets as it leaves them: as read, or as committed. */
  #remember(read: ReadState, state: BatchState, committed: readonly CommittedWallet[]): void {
    const written = new Map(committed.map((row) => [row.wallet_id, row]));
    for (const [walletId, wallet] of read.wallets) {
      const row = written.get(walletId);
      const version = row?.version ?? read.versions.get(walletId);
      if (version === undefined) continue;
      const coins = state.coinsOf(walletId);
      const readUpTo = read.readUpTo.get(walletId);
      this.#known.remember(walletId, {
        wallet: row
          ? {
              ...wallet,
              total: row.total,
              available: row.available,
              withdrawable: row.withdrawable,
              reserved: row.reserved,
            }
          : wallet,
        version,
        ...(coins ? { coins } : {}),
        ...(readUpTo ? { readUpTo } : {}),
      });
    }
  }

  /** Follows the commits' announcements (`ledger_wallets`) from now on, or no longer. */
  follow(following: boolean): void {
    if (!following) this.#known.forgetAll();
    this.#known.following = following;
  }

  /** An announcement of `ledger_wallets`: wallets another commit moved are to be read again. */
  announced(payload: string): void {
    const words = payload.split(' ');
    if (words[0] === this.#origin) return;
    if (words[1] === '*') {
      this.#known.forgetAll();
      return;
    }
    const until = performance.now() + CONTENDED_MS;
    for (let index = 1; index + 1 < words.length; index += 2) {
      const walletId = words[index] as AccountId;
      this.#known.announced(walletId, Number(words[index + 1]));
      // Still moved elsewhere: its batches keep taking the locked path.
      if (this.#contended.has(walletId)) this.#contend(walletId, until);
    }
  }

  #alone(submission: Submission): void {
    executeAlone(this.#db, submission).then(submission.resolve, submission.reject);
  }
}

const groupCommits = new WeakMap<Kysely<Database>, GroupCommit>();

/** The group commit of a database handle: one per pool, so its batches share its connections. */
export function groupCommitFor(db: Kysely<Database>): GroupCommit {
  let group = groupCommits.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groupCommits.set(db, group);
  }
  return group;
}

/** The channel on which every `ledger_commit` announces the wallets it moved. */
export const WALLET_CHANGES_CHANNEL = 'ledger_wallets';

/**
 * What a process's LISTEN connection tells the group commit of `db` about
 * WALLET_CHANGES_CHANNEL: its announcements, and whether they may have
 * been missed (lost) or arrive again (listening). While they arrive, a
 * wallet another process moved is read again once, not for a minute.
 */
export function walletChangeFollower(db: Kysely<Database>) {
  const group = groupCommitFor(db);
  return {
    notified: (payload: string | undefined) => {
      group.announced(payload ?? '');
    },
    lost: () => {
      group.follow(false);
    },
    resumed: () => {
      group.follow(true);
    },
  };
}

/** How many batches the group commit of `db` has run so far, and how many of them read wallets before deciding. */
export function groupCommitCounts(db: Kysely<Database>): { batches: number; read: number } {
  const { batches, read } = groupCommitFor(db).counts;
  return { batches, read };
}

/**
 * How the batches of the group commit of `db` met other processes' so far:
 * commits the version check refused because a wallet had moved elsewhere
 * (each then decided again under lock), and batches decided and committed
 * with their wallets locked (after such a refusal, or on wallets contended
 * lately).
 */
export function groupCommitContention(db: Kysely<Database>): { conflicted: number; locked: number } {
  const { conflicted, locked } = groupCommitFor(db).counts;
  return { conflicted, locked };
}

/** The queue of the group commit of `db`: commands waiting now, and commands turned away so far for a full queue. */
export function ledgerQueueCounts(db: Kysely<Database>): { queued: number; turnedAway: number } {
  const group = groupCommitFor(db);
  return { queued: group.queued, turnedAway: group.counts.turnedAway };
}

/** How many commands may wait for the group commit of `db` (DEFAULT_QUEUE_LIMIT unless set); beyond it, LedgerQueueFull. */
export function limitLedgerQueue(db: Kysely<Database>, limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`a ledger queue limit must be a whole number from 1, not ${limit}`);
  groupCommitFor(db).queueLimit = limit;
}
