export type * from './schema.ts';
export { schemaColumns } from './schema.ts';
export { NoSuitableHost, newDatabaseClient, poolConnection } from './session-target.ts';
export { connectDatabase, type DatabaseHandle, type PoolOptions } from './pool.ts';
export { ReadReplica, type ReadReplicaOptions } from './read-replica.ts';
export { formatLsn, lagMs, parseLsn, positionAfter, readTarget, type ReadTarget } from './read-routing.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export { openDatabaseServer, type DatabaseServer } from './database-server.ts';
export {
  latestMigration,
  LIVE_SQL,
  LiveSqlFailed,
  migrateToLatest,
  MigrationChanged,
  MigrationFailed,
  MIGRATIONS_DIR,
  type MigrateOptions,
} from './migrator.ts';
export { runDatabaseProcess, type DatabaseProcess } from './database-process.ts';
export * from './event-store/index.ts';
export * from './idempotency/idempotency.ts';
export * from './projections/runner.ts';
export { startEmbeddedPostgres } from './embedded-server.ts';
export {
  destroyFormation,
  killNode,
  primaryNode,
  recreateNode,
  restartNode,
  startFormation,
  switchover,
  waitForSettled,
  type Formation,
  type FormationNode,
  type FormationOptions,
} from './formation.ts';
