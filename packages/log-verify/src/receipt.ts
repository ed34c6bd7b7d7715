import { parseCheckpoint } from './checkpoint.ts';
import { leafHash, verifyInclusion } from './merkle.ts';
import { decodeBase64, NoteError, openNote, parseVerifierKey } from './note.ts';

/**
 * What a person keeps to prove a transaction is in the ledger: the leaf (the
 * chain hash of the transaction's first event), where it sits, the path to
 * the root, and the signed checkpoint holding that root.
 */
export interface Receipt {
  leaf_index: number;
  tree_size: number;
  /** The 32-byte leaf data, hex. */
  leaf_data: string;
  /** The inclusion proof's hashes, base64, deepest first. */
  proof: string[];
  /** The signed checkpoint (a signed note) whose tree size is `tree_size`. */
  checkpoint: string;
  /** Anything else the receipt tells (the transaction itself); not checked here. */
  [other: string]: unknown;
}

export interface ReceiptCheck {
  origin: string;
  treeSize: number;
  leafIndex: number;
}

function field<T>(value: unknown, ok: (value: unknown) => value is T, name: string): T {
  if (!ok(value)) throw new NoteError(`the receipt's ${name} is missing or of the wrong kind`);
  return value;
}

const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isText = (value: unknown): value is string => typeof value === 'string';
const isTextList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);

/**
 * Checks a receipt against the log's verifier key: the checkpoint is signed
 * by it, names the key's log, has the receipt's tree size, and the leaf's
 * inclusion proof leads to its root. Throws a NoteError or ProofError saying
 * what fails.
 */
export function verifyReceipt(receipt: unknown, vkey: string): ReceiptCheck {
  if (typeof receipt !== 'object' || receipt === null) throw new NoteError('a receipt is a JSON object');
  const fields = receipt as Record<string, unknown>;
  const leafIndex = field(fields.leaf_index, isIndex, 'leaf_index');
  const treeSize = field(fields.tree_size, isIndex, 'tree_size');
  const leafData = field(fields.leaf_data, isText, 'leaf_data');
  const proof = field(fields.proof, isTextList, 'proof');
  const note = field(fields.checkpoint, isText, 'checkpoint');
  if (!/^[0-9a-f]{64}$/u.test(leafData)) throw new NoteError('the leaf data is 32 bytes in lower-case hex');
  const key = parseVerifierKey(vkey);
  const checkpoint = parseCheckpoint(openNote(note, key));
  if (checkpoint.origin !== key.name)
    throw new NoteError(`the checkpoint is of ${checkpoint.origin}, the key of ${key.name}`);
  if (checkpoint.treeSize !== treeSize)
    throw new NoteError(`the checkpoint is of ${checkpoint.treeSize} leaves, the proof of ${treeSize}`);
  verifyInclusion(
    leafIndex,
    treeSize,
    leafHash(Buffer.from(leafData, 'hex')),
    proof.map((hash) => decodeBase64(hash, 'a proof hash')),
    checkpoint.rootHash,
  );
  return { origin: checkpoint.origin, treeSize, leafIndex };
}
