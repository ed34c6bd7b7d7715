import type { Logger } from 'pino';

/**
 * Stops what a process started, last started first, once: on SIGINT/SIGTERM
 * or when start-up fails half way. A failing step is logged and the rest
 * still run, so the database server is stopped even if the HTTP server was not.
 */
export class Shutdown {
  readonly #steps: { name: string; stop: () => Promise<unknown> }[] = [];
  #running: Promise<void> | undefined;
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  add(name: string, stop: () => Promise<unknown>): void {
    this.#steps.push({ name, stop });
  }

  run(): Promise<void> {
    this.#running ??= (async () => {
      for (const step of [...this.#steps].reverse()) {
        try {
          await step.stop();
        } catch (error) {
          this.#log.error({ err: error, step: step.name }, 'shutdown step failed');
        }
      }
    })();
    return this.#running;
  }

  /**
   * Runs the steps on SIGINT or SIGTERM, then exits with code 0. The
   * process's shutdown owns these signals: any listener added before is
   * removed, so the steps run in order.
   */
  onSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.removeAllListeners(signal);
      process.once(signal, () => {
        this.#log.info({ signal }, 'shutting down');
        void this.run().then(() => process.exit(0));
      });
    }
  }
}
