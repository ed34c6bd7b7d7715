import type { Database } from '@peeks/db';
import { loadLogKey, makeCheckpoint, type LogKey } from '@peeks/ledger-store';
import type { Config, Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { witnessCheckpoint, type WitnessSettings } from './witnesses.ts';

export interface LedgerLogSettings {
  key: LogKey;
  checkpointSeconds: number;
  witnesses: WitnessSettings;
}

type LedgerLogConfig = Pick<
  Config,
  | 'NODE_ENV'
  | 'DATA_DIR'
  | 'LEDGER_LOG_ORIGIN'
  | 'LEDGER_LOG_KEY'
  | 'LEDGER_LOG_CHECKPOINT_SECONDS'
  | 'LEDGER_WITNESS_DIR'
  | 'LEDGER_WITNESS_URL'
  | 'LEDGER_WITNESS_SECRET'
  | 'WEBHOOK_TIMEOUT_MS'
>;

/** The ledger log's settings from the config, its key loaded (or made, outside LEDGER_LOG_KEY). */
export async function ledgerLogSettingsFrom(config: LedgerLogConfig, log: Logger): Promise<LedgerLogSettings> {
  const { key, made } = await loadLogKey({
    origin: config.LEDGER_LOG_ORIGIN,
    seed: config.LEDGER_LOG_KEY,
    dataDir: config.DATA_DIR,
  });
  if (made && config.NODE_ENV === 'production')
    log.warn('made a ledger log key in DATA_DIR: set LEDGER_LOG_KEY so that it outlives this machine');
  return {
    key,
    checkpointSeconds: config.LEDGER_LOG_CHECKPOINT_SECONDS,
    witnesses: {
      dir: config.LEDGER_WITNESS_DIR,
      url: config.LEDGER_WITNESS_URL,
      secret: config.LEDGER_WITNESS_SECRET,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    },
  };
}

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Every `checkpointSeconds`, signs a checkpoint if the log grew and hands it
 * to the witnesses. Every worker process runs one; two signing the same
 * size store it once, and only the one that stored it sends it.
 */
export function startCheckpointer(
  db: Kysely<Database>,
  settings: LedgerLogSettings,
  options: { now: () => Date; onError: (error: unknown) => void },
): Checkpointer {
  const state = { stopped: false };
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!state.stopped) {
      try {
        const checkpoint = await makeCheckpoint(db, settings.key, options.now());
        if (checkpoint) await witnessCheckpoint(db, checkpoint, settings.witnesses, options.now());
      } catch (error) {
        options.onError(error);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, settings.checkpointSeconds * 1000).unref();
      });
    }
  })();
  return {
    async stop() {
      state.stopped = true;
      wake?.();
      await loop;
    },
  };
}
