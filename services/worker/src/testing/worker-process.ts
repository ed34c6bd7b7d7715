import { spawn } from 'node:child_process';
import path from 'node:path';

const WORKER_MAIN = path.join(import.meta.dirname, '..', 'main.ts');

/** `npm run worker` as a child process a test can kill. */
export interface WorkerProcess {
  readonly pid: number;
  /** Every line the worker has logged so far (pino JSON), in order. */
  readonly lines: string[];
  /** The first line from now on, or already logged, that matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Whether the process is still running. */
  running(): boolean;
  /** SIGKILL: no shutdown step runs, as when the machine loses power. */
  kill(): Promise<void>;
  /** SIGTERM, and the graceful stop it starts. */
  stop(): Promise<void>;
}

/**
 * Starts the workers alone in a new process against `databaseUrl` and waits
 * until they run. They look for jobs of dead workers every second, so a job
 * left active by a killed worker is retried a few seconds after its heartbeat stops.
 */
export async function startWorkerProcess(options: {
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=8', WORKER_MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      LOG_LEVEL: 'info',
      JOB_SUPERVISE_SECONDS: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should the test runner die first, the worker goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const lines: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      lines.push(line);
      for (const waiter of waiting) {
        if (waiter.pattern.test(line)) {
          waiting.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', () => {
      exited = true;
      process.removeListener('exit', killOnExit);
      resolve();
    });
  });

  const waitFor = (pattern: RegExp, timeoutMs = 30_000) => {
    const seen = lines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const waiter = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiting.delete(waiter);
        reject(
          new Error(
            `the worker logged nothing matching ${String(pattern)} in ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`,
          ),
        );
      }, timeoutMs);
      waiting.add(waiter);
    });
  };

  const worker: WorkerProcess = {
    pid: child.pid ?? 0,
    lines,
    waitFor,
    running: () => !exited,
    kill: async () => {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
  await Promise.race([
    waitFor(/"msg":"workers started"/, 60_000),
    exit.then(() => {
      throw new Error(`the worker exited while starting:\n${lines.join('\n')}`);
    }),
  ]);
  return worker;
}
