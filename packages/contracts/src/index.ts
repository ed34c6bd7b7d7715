export * from './envelope.ts';
export * from './error-codes.ts';
export * from './health.ts';
export * from './ledger-types.ts';
