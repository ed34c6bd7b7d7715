import type { LedgerVerification } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { describeLedgerReport, verifyLedger } from '@peeks/ledger-store';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';

/**
 * `ledger:verify` run in the API process on an operator's request: in the
 * background, since a replay of the whole log can take minutes, and one at
 * a time, since each holds a snapshot and rebuilds every read model. The
 * last run's outcome is kept in memory: it is a status, not a record (the
 * log itself is the record), and a restart is a fine time to forget it.
 */
export class LedgerVerificationJob {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;
  readonly #log: FastifyBaseLogger;
  #status: LedgerVerification = {
    state: 'never run',
    started_at: null,
    finished_at: null,
    ok: null,
    report: null,
    progress: null,
  };
  #running: Promise<void> | null = null;

  constructor(db: Kysely<Database>, clock: () => Date, log: FastifyBaseLogger) {
    this.#db = db;
    this.#clock = clock;
    this.#log = log;
  }

  get status(): LedgerVerification {
    return this.#status;
  }

  /** Starts a run unless one is going; true when this call started it. */
  start(): boolean {
    if (this.#running) return false;
    this.#status = {
      state: 'running',
      started_at: this.#clock().toISOString(),
      finished_at: null,
      ok: null,
      report: null,
      progress: null,
    };
    this.#running = this.#run().finally(() => {
      this.#running = null;
    });
    return true;
  }

  /** Waits for the run in progress, if any (the app's close, and tests). */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #run(): Promise<void> {
    const { started_at } = this.#status;
    try {
      const report = await verifyLedger(this.#db, {
        onProgress: (progress) => {
          this.#status = {
            ...this.#status,
            progress: {
              stage: progress.stage,
              events_replayed: progress.eventsReplayed,
              events_total: progress.eventsTotal,
            },
          };
        },
      });
      this.#status = {
        ...this.#status,
        state: 'finished',
        started_at,
        finished_at: this.#clock().toISOString(),
        ok: report.ok,
        report: describeLedgerReport(report),
      };
      if (!report.ok) this.#log.error({ verification: this.#status.report }, 'ledger verification found problems');
    } catch (error) {
      this.#log.error({ err: error }, 'ledger verification could not run');
      const reason = error instanceof Error ? error.message : String(error);
      this.#status = {
        ...this.#status,
        state: 'crashed',
        started_at,
        finished_at: this.#clock().toISOString(),
        ok: null,
        report: `Ledger verification could not run: ${reason}`,
      };
    }
  }
}
