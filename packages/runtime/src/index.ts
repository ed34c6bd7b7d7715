export { readConfig, ConfigError, serveSandboxProcessor, type Config } from './config.ts';
export { createLogger, type Logger } from './logger.ts';
export { isSecretName, scrubSecrets, scrubUrl, REDACTED } from './redaction.ts';
export { Shutdown } from './shutdown.ts';
export {
  parseDatabaseUrl,
  DatabaseUrlInvalid,
  SESSION_TARGETS,
  type DatabaseAddress,
  type DatabaseHost,
  type SessionTarget,
} from './database-url.ts';
