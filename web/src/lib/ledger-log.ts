import type { TransactionView } from '@peeks/contracts';

/**
 * The ledger log checked in the browser with Web Crypto alone, by the same
 * rules as `npx peeks-verify` (RFC 9162 proofs, c2sp.org signed-note
 * checkpoints): nothing the server says is taken on trust but its verifier key.
 */
export interface LedgerReceipt {
  transaction: TransactionView;
  leaf_index: number;
  tree_size: number;
  leaf_data: string;
  proof: string[];
  checkpoint: string;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../gu) ?? [], (pair) => parseInt(pair, 16));

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to, or null if it is malformed. */
async function rootFromProof(index: number, size: number, leaf: Uint8Array, proof: Uint8Array[]) {
  if (index >= size) return null;
  let [fn, sn] = [index, size - 1];
  let r = await sha256(Uint8Array.of(0), leaf);
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(Uint8Array.of(1), p, r);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else r = await sha256(Uint8Array.of(1), r, p);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 ? r : null;
}

/** The checkpoint's text when a signature by the vkey's Ed25519 key holds; throws saying why not. */
export async function openNote(note: string, vkey: string): Promise<string> {
  const [name = '', id = '', ...rest] = vkey.split('+');
  const material = fromBase64(rest.join('+'));
  if (material.length !== 33 || material[0] !== 1) throw new Error('the log key is not an Ed25519 key');
  const publicKey = material.slice(1);
  const keyId = (await sha256(bytes(name), Uint8Array.of(0x0a, 1), publicKey)).slice(0, 4);
  if (Array.from(keyId, (byte) => byte.toString(16).padStart(2, '0')).join('') !== id)
    throw new Error('the log key does not match its key id');
  const split = note.lastIndexOf('\n\n');
  const text = note.slice(0, split + 1);
  const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const [dash, signer, blob = ''] = line.split(' ');
    if (dash !== '\u2014' || signer !== name) continue;
    const signature = fromBase64(blob);
    if (!same(signature.slice(0, 4), keyId)) continue;
    if (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature.slice(4), bytes(text))) return text;
  }
  throw new Error('the checkpoint is not signed by the log key');
}

/** Checks a receipt against the log's verifier key; the reason it fails, or null. */
export async function checkReceipt(receipt: LedgerReceipt, vkey: string): Promise<string | null> {
  try {
    const [origin, size, root = ''] = (await openNote(receipt.checkpoint, vkey)).split('\n');
    if (origin !== vkey.split('+')[0]) return 'the checkpoint is of another log';
    if (Number(size) !== receipt.tree_size) return 'the checkpoint is of another tree size';
    const computed = await rootFromProof(
      receipt.leaf_index,
      receipt.tree_size,
      fromHex(receipt.leaf_data),
      receipt.proof.map(fromBase64),
    );
    return computed && same(computed, fromBase64(root)) ? null : 'the proof does not lead to the signed root';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The tree size and root of a checkpoint signed by the vkey; throws saying why not. */
export async function openCheckpoint(note: string, vkey: string): Promise<{ treeSize: number; root: Uint8Array }> {
  const [origin, size = '', root = ''] = (await openNote(note, vkey)).split('\n');
  if (origin !== vkey.split('+')[0]) throw new Error('the checkpoint is of another log');
  if (!/^(0|[1-9][0-9]*)$/u.test(size)) throw new Error('the checkpoint has no tree size');
  return { treeSize: Number(size), root: fromBase64(root) };
}

/**
 * RFC 9162 §2.1.4.2: whether the proof shows the tree of `second` leaves
 * extends the one of `first`; the reason it does not, or null.
 */
export async function checkConsistency(
  first: { treeSize: number; root: Uint8Array },
  second: { treeSize: number; root: Uint8Array },
  proofBase64: string[],
): Promise<string | null> {
  if (second.treeSize < first.treeSize) return 'the log is shorter than the checkpoint';
  if (first.treeSize === second.treeSize)
    return same(first.root, second.root) ? null : 'the log has another root at the same size';
  if (first.treeSize === 0) return null;
  const proof = proofBase64.map(fromBase64);
  const path = Number.isInteger(Math.log2(first.treeSize)) ? [first.root, ...proof] : proof;
  let [fn, sn] = [first.treeSize - 1, second.treeSize - 1];
  while (fn % 2 === 1) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  const [head, ...rest] = path;
  if (!head) return 'the consistency proof is empty';
  let [fr, sr] = [head, head];
  for (const c of rest) {
    if (sn === 0) return 'the consistency proof is too long';
    if (fn % 2 === 1 || fn === sn) {
      fr = await sha256(Uint8Array.of(1), c, fr);
      sr = await sha256(Uint8Array.of(1), c, sr);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else sr = await sha256(Uint8Array.of(1), sr, c);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  if (sn !== 0) return 'the consistency proof is too short';
  return same(fr, first.root) && same(sr, second.root) ? null : 'the log does not extend the checkpoint';
}
