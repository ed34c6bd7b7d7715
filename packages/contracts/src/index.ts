export * from './accounts.ts';
export * from './envelope.ts';
export * from './error-codes.ts';
export * from './fields.ts';
export * from './health.ts';
export * from './ledger-types.ts';
export * from './sessions.ts';
