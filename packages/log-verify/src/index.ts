export { formatCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint.ts';
export {
  leafHash,
  nodeHash,
  ProofError,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';
export {
  decodeBase64,
  ed25519PublicKey,
  formatVerifierKey,
  keyIdOf,
  NoteError,
  openNote,
  parseNote,
  parseVerifierKey,
  type Note,
  type NoteSignature,
  type VerifierKey,
} from './note.ts';
export { verifyReceipt, type Receipt, type ReceiptCheck } from './receipt.ts';
