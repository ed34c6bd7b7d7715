export {
  appendedEvents,
  appendToStream,
  prepareAppend,
  type AppendedRow,
  type AppendOptions,
  type AppendResult,
  type PreparedAppend,
} from './append.ts';
export type { StreamHead } from './stream-heads.ts';
export { readAll, readEventHashes, readStream, toStoredEvent, type EventHash, type GlobalBatch } from './read.ts';
export { verifyAllStreams, verifyStream, type ChainBreak, type ChainReport } from './verify.ts';
export { GENESIS_HASH, canonicalEvent, chainHash } from './hash-chain.ts';
export { InvalidEvent, StreamVersionConflict } from './errors.ts';
export * from './types.ts';
