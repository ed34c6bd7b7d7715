import type { LedgerVerification } from '@peeks/contracts';
import type { Database, LedgerVerificationsTable } from '@peeks/db';
import { describeLedgerReport, verifyLedger, type VerificationProgress } from '@peeks/ledger-store';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';

/** How often a running verification says it is alive, and how long its silence means its process died. */
const HEARTBEAT_MS = 2_000;
const ABANDONED_AFTER_MS = 60_000;

type Progress = NonNullable<LedgerVerification['progress']>;

const NEVER_RUN: LedgerVerification = {
  state: 'never run',
  started_at: null,
  finished_at: null,
  ok: null,
  report: null,
  progress: null,
};

function viewOf(row: Selectable<LedgerVerificationsTable>): LedgerVerification {
  return {
    state: row.state,
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    ok: row.ok,
    report: row.report,
    progress: (row.progress as Progress | null) ?? null,
  };
}

/**
 * `ledger:verify` run in the API process on an operator's request: in the
 * background, since a replay of the whole log can take minutes. Each run is
 * a row of `ledger_verifications`, so every API process reports the same
 * last run, one runs at a time across all of them, and the outcome outlives
 * a restart. A run whose process died stops beating and is marked crashed.
 */
export class LedgerVerificationJob {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;
  readonly #log: FastifyBaseLogger;
  readonly #vkey: string | undefined;
  #running: Promise<void> | null = null;

  constructor(db: Kysely<Database>, clock: () => Date, log: FastifyBaseLogger, vkey?: string) {
    this.#vkey = vkey;
    this.#db = db;
    this.#clock = clock;
    this.#log = log;
  }

  /** The latest run, as any process sees it. */
  async status(): Promise<LedgerVerification> {
    await this.#markAbandoned();
    const row = await this.#db
      .selectFrom('ledger_verifications')
      .selectAll()
      .orderBy('verification_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? viewOf(row) : NEVER_RUN;
  }

  /** Starts a run unless one is going in any process; true when this call started it. */
  async start(operator: string): Promise<boolean> {
    await this.#markAbandoned();
    const now = this.#clock();
    // The partial unique index admits one running row: a second start finds it and does nothing.
    const { rows } = await sql<{ verification_id: number }>`
      INSERT INTO ledger_verifications (state, started_by, started_at, heartbeat_at)
      VALUES ('running', ${operator}, ${now}, ${now})
      ON CONFLICT ((true)) WHERE state = 'running' DO NOTHING
      RETURNING verification_id
    `.execute(this.#db);
    const [row] = rows;
    if (!row) return false;
    this.#running = this.#run(row.verification_id).finally(() => {
      this.#running = null;
    });
    return true;
  }

  /** Waits for this process's run in progress, if any (the app's close, and tests). */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #markAbandoned(): Promise<void> {
    const now = this.#clock();
    await this.#db
      .updateTable('ledger_verifications')
      .set({ state: 'crashed', finished_at: now, report: 'Ledger verification stopped: the process running it ended' })
      .where('state', '=', 'running')
      .where('heartbeat_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS))
      .execute();
  }

  async #run(id: number): Promise<void> {
    let progress: Progress | null = null;
    let written = 0;
    const beat = async () => {
      written = Date.now();
      await this.#db
        .updateTable('ledger_verifications')
        .set({ heartbeat_at: this.#clock(), progress: progress && JSON.stringify(progress) })
        .where('verification_id', '=', id)
        .where('state', '=', 'running')
        .execute();
    };
    const timer = setInterval(() => {
      beat().catch((error: unknown) => {
        this.#log.warn({ err: error }, 'ledger verification heartbeat failed');
      });
    }, HEARTBEAT_MS);
    timer.unref();
    const finish = (values: { state: 'finished' | 'crashed'; ok: boolean | null; report: string }) =>
      this.#db
        .updateTable('ledger_verifications')
        .set({ ...values, finished_at: this.#clock(), progress: progress && JSON.stringify(progress) })
        .where('verification_id', '=', id)
        .execute();
    try {
      const report = await verifyLedger(this.#db, {
        log: { vkey: this.#vkey },
        onProgress: (step: VerificationProgress) => {
          progress = { stage: step.stage, events_replayed: step.eventsReplayed, events_total: step.eventsTotal };
          // Progress reaches the table with the heartbeat, at most every HEARTBEAT_MS / 4.
          if (Date.now() - written > HEARTBEAT_MS / 4) void beat().catch(() => undefined);
        },
      });
      clearInterval(timer);
      const described = describeLedgerReport(report);
      await finish({ state: 'finished', ok: report.ok, report: described });
      if (!report.ok) this.#log.error({ verification: described }, 'ledger verification found problems');
    } catch (error) {
      clearInterval(timer);
      this.#log.error({ err: error }, 'ledger verification could not run');
      const reason = error instanceof Error ? error.message : String(error);
      await finish({ state: 'crashed', ok: null, report: `Ledger verification could not run: ${reason}` }).catch(
        (failure: unknown) => {
          this.#log.error({ err: failure }, 'ledger verification could not record its crash');
        },
      );
    }
  }
}
