import { checkpointResponse, inclusionProofResponse, logKeyResponse, type TransactionView } from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/**
 * A transaction's receipt from the ledger log, checked in the browser with
 * Web Crypto alone, by the same rules as `npx peeks-verify` (RFC 9162
 * inclusion proof, c2sp.org signed-note checkpoint): nothing the server
 * says is taken on trust but its verifier key.
 */
export interface LedgerReceipt {
  transaction: TransactionView;
  leaf_index: number;
  tree_size: number;
  leaf_data: string;
  proof: string[];
  checkpoint: string;
}

export interface ReceiptResult {
  receipt: LedgerReceipt;
  /** The verifier key it was checked with. */
  vkey: string;
  /** Why it does not hold, or null when it does. */
  failure: string | null;
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
async function openNote(note: string, vkey: string): Promise<string> {
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

/** Fetches the newest checkpoint and the transaction's inclusion proof in it, and checks them. */
export async function ledgerReceipt(transaction: TransactionView): Promise<ReceiptResult> {
  const { vkey } = await callApi('/ledger/log-key', logKeyResponse);
  const { checkpoint } = await callApi('/ledger/checkpoint', checkpointResponse);
  const treeSize = checkpoint.split('\n')[1] ?? '';
  const proof = await callApi('/ledger/proof/inclusion', inclusionProofResponse, {
    query: { tx_id: transaction.tx_id, tree_size: treeSize },
  });
  const receipt = {
    transaction,
    leaf_index: proof.leaf_index,
    tree_size: proof.tree_size,
    leaf_data: proof.leaf_data,
    proof: proof.proof,
    checkpoint,
  };
  return { receipt, vkey, failure: await checkReceipt(receipt, vkey) };
}
