import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { scrubSecrets } from './redaction.ts';

export type { Logger };

/**
 * One JSON line per log call, secrets scrubbed by field name at any depth
 * before pino serializes the line.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (object: Record<string, unknown>) => scrubSecrets(object),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
