export { latestCheckpoint, makeCheckpoint, type StoredCheckpoint } from './checkpoints.ts';
export { LOG_KEY_FILE, loadLogKey, logKeyFromSeed, signCheckpoint, type LogKey } from './log-key.ts';
export { consistencyProof, inclusionProof, logSize, rootAt } from './log-store.ts';
export { ledgerLog } from './sequencer.ts';
