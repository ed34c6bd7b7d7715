import { appendedEvents, type Database } from '@peeks/db';
import { needsOf, type AccountId } from '@peeks/ledger';
import type { Kysely } from 'kysely';
import {
  commitDecisions,
  decideRequest,
  executeAlone,
  isSerializationFailure,
  OPTIMISTIC_ATTEMPTS,
  readLedgerState,
  refusedOutcome,
  type Decision,
  type LedgerOutcome,
  type LedgerRequest,
} from './execute.ts';

/**
 * Commands per batch at most, and batches committing side by side. Two:
 * more overlap the read and the decision of one batch with the commit of
 * another, but make smaller batches, and a batch's statements cost about the
 * same whatever its size. In paired bench:ledger runs at 8 callers, two did
 * 46% and 45% of the baseline against 36% for one and 34% for four; on a
 * quiet machine 35% against 33% for one, 34% for three and 30% for four.
 */
const MAX_BATCH = 32;
const MAX_IN_FLIGHT = 2;

interface Submission extends LedgerRequest {
  /** The wallets and coin holders the command reads: no two commands of a batch share one. */
  accounts: AccountId[];
  collisions: number;
  /** Answered (refused while deciding): a failed commit must not send it round again. */
  settled: boolean;
  resolve: (outcome: LedgerOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for new transactions: the commands submitted while a batch
 * commits are read in one `ledger_state` call, decided, and committed in
 * one `ledger_commit` call and one database transaction. That divides what
 * costs most per command (round trips, statements, commits) by the batch
 * size.
 *
 * A batch only holds commands on different wallets and coin holders, and
 * none that a batch in flight is using, so each is decided exactly as it
 * would be alone. The commit checks every wallet's version, so a change
 * from elsewhere (another process) sends the batch round again; a command
 * that collides too often, or a batch that fails for any other reason (one
 * of its transactions exists already, say), runs command by command.
 */
class GroupCommit {
  readonly #db: Kysely<Database>;
  #pending: Submission[] = [];
  readonly #busy = new Set<AccountId>();
  #inFlight = 0;
  #scheduled = false;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  submit(request: LedgerRequest): Promise<LedgerOutcome> {
    const needs = needsOf(request.command, null);
    const accounts = [...new Set([...needs.wallets, ...(needs.coins ? [needs.coins.walletId] : [])])];
    return new Promise((resolve, reject) => {
      this.#pending.push({ ...request, accounts, collisions: 0, settled: false, resolve, reject });
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
      const batch = this.#take(Math.min(MAX_BATCH, Math.ceil(this.#pending.length / (MAX_IN_FLIGHT - this.#inFlight))));
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

  /** The oldest pending commands that share no account with each other or with a batch in flight. */
  #take(limit: number): Submission[] {
    const taken: Submission[] = [];
    const used = new Set(this.#busy);
    const left: Submission[] = [];
    for (const submission of this.#pending) {
      if (taken.length < limit && submission.accounts.every((account) => !used.has(account))) {
        taken.push(submission);
        for (const account of submission.accounts) used.add(account);
      } else {
        left.push(submission);
      }
    }
    this.#pending = left;
    return taken;
  }

  async #run(batch: Submission[]): Promise<void> {
    try {
      await this.#commit(batch);
    } catch (error) {
      const unsettled = batch.filter((submission) => !submission.settled);
      if (isSerializationFailure(error)) {
        const again = unsettled.filter((submission) => ++submission.collisions < OPTIMISTIC_ATTEMPTS);
        this.#pending.unshift(...again);
        for (const submission of unsettled.filter((each) => !again.includes(each))) this.#alone(submission);
      } else {
        for (const submission of unsettled) this.#alone(submission);
      }
    }
  }

  async #commit(batch: Submission[]): Promise<void> {
    const state = await readLedgerState(this.#db, batch.map((submission) => needsOf(submission.command, null)), false);
    const decisions = batch.map((submission) => decideRequest(submission, state, null));
    const decided: { submission: Submission; decision: Extract<Decision, { prepared: unknown }> }[] = [];
    for (const [index, decision] of decisions.entries()) {
      const submission = batch[index];
      if (!submission) continue;
      if (decision.refused) {
        submission.settled = true;
        refusedOutcome(this.#db, submission.command, decision.refused).then(submission.resolve, submission.reject);
      } else {
        decided.push({ submission, decision });
      }
    }
    if (decided.length === 0) return;

    const wallets = new Set(decided.flatMap(({ submission }) => needsOf(submission.command, null).wallets));
    const versions = new Map([...state.versions].filter(([wallet]) => wallets.has(wallet)));
    const rows = await commitDecisions(this.#db, versions, decided.map(({ decision }) => decision));
    for (const { submission, decision } of decided) {
      const appended = appendedEvents(decision.prepared, rows.filter((row) => row.stream_id === decision.prepared.streamId));
      // Alone in its batch, a transaction that exists already writes nothing: the lone path replays it.
      if (appended) submission.resolve({ record: decision.record, events: appended.events, replayed: false });
      else this.#alone(submission);
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
