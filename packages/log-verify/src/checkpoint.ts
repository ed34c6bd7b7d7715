import { decodeBase64, NoteError } from './note.ts';

/** The body of a c2sp.org/tlog-checkpoint: which log, how many leaves, and their Merkle root. */
export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
  /** Lines after the root, kept as they are. */
  extensions: string[];
}

export function formatCheckpoint(checkpoint: Omit<Checkpoint, 'extensions'>): string {
  return `${checkpoint.origin}\n${checkpoint.treeSize}\n${checkpoint.rootHash.toString('base64')}\n`;
}

export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new NoteError('a checkpoint ends with a newline');
  const [origin, size, root, ...extensions] = text.slice(0, -1).split('\n');
  if (!origin) throw new NoteError('a checkpoint starts with its origin');
  if (size === undefined || !/^(?:0|[1-9][0-9]*)$/u.test(size) || !Number.isSafeInteger(Number(size)))
    throw new NoteError('the second line of a checkpoint is its tree size, in decimal');
  const rootHash = decodeBase64(root ?? '', 'the root hash of a checkpoint');
  if (rootHash.length !== 32) throw new NoteError('the root hash of a checkpoint is 32 bytes');
  if (extensions.some((line) => line === '')) throw new NoteError('a checkpoint has no empty lines');
  return { origin, treeSize: Number(size), rootHash, extensions };
}
