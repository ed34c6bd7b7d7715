export { latestCheckpoint, makeCheckpoint, type StoredCheckpoint } from './checkpoints.ts';
export { LOG_KEY_FILE, loadLogKey, logKeyFromSeed, readLogKey, signCheckpoint, type LogKey } from './log-key.ts';
export { consistencyProof, inclusionProof, logSize, rootAt } from './log-store.ts';
export { ledgerLog, SEQUENCER_POLL_MS, sequencerLag } from './sequencer.ts';
export { verifyLedgerLog, type LogReport, type OutsideCheckpoint } from './verify-log.ts';
export { checkpointToExtend, witnessFileName } from './outside-checkpoint.ts';
