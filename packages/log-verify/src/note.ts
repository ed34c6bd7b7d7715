import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** The signature type byte of Ed25519 in C2SP signed notes. */
export const ED25519 = 0x01;

export class NoteError extends Error {}

/** A verifier key of c2sp.org/signed-note: who signs, and the Ed25519 key that does. */
export interface VerifierKey {
  name: string;
  /** The first four bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key). */
  keyId: Buffer;
  publicKey: Buffer;
}

const namePattern = /^[^\s+]+$/u;

function checkName(name: string): void {
  if (!namePattern.test(name))
    throw new NoteError(`a key name is text without spaces or '+', not ${JSON.stringify(name)}`);
}

export function keyIdOf(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Uint8Array.of(0x0a, ED25519))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** `<name>+<8 hex key id>+<base64(0x01 ‖ 32-byte public key)>` for an Ed25519 key. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  checkName(name);
  if (publicKey.length !== 32) throw new NoteError('an Ed25519 public key is 32 bytes');
  const material = Buffer.concat([Uint8Array.of(ED25519), publicKey]).toString('base64');
  return `${name}+${keyIdOf(name, publicKey).toString('hex')}+${material}`;
}

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/u;

/** Standard base64 with padding, strictly: Buffer.from would skip bad characters. */
export function decodeBase64(text: string, what: string): Buffer {
  if (!base64Pattern.test(text)) throw new NoteError(`${what} is not base64`);
  return Buffer.from(text, 'base64');
}

export function parseVerifierKey(vkey: string): VerifierKey {
  // The base64 may itself hold '+': the name and key id are the first two fields.
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw new NoteError('a verifier key is <name>+<key id>+<key>');
  const name = vkey.slice(0, first);
  const id = vkey.slice(first + 1, second);
  checkName(name);
  if (!/^[0-9a-f]{8}$/u.test(id)) throw new NoteError('the key id of a verifier key is 8 lower-case hex digits');
  const material = decodeBase64(vkey.slice(second + 1), 'the key of a verifier key');
  if (material.length !== 33 || material[0] !== ED25519) throw new NoteError('the verifier key is not an Ed25519 key');
  const publicKey = material.subarray(1);
  const keyId = keyIdOf(name, publicKey);
  if (keyId.toString('hex') !== id) throw new NoteError('the key id does not match the name and key');
  return { name, keyId, publicKey };
}

export function ed25519PublicKey(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
    format: 'jwk',
  });
}

export interface NoteSignature {
  name: string;
  keyId: Buffer;
  signature: Buffer;
}

export interface Note {
  /** The signed text, ending in a newline. */
  text: string;
  signatures: NoteSignature[];
}

const signatureLine = /^\u2014 (\S+) (\S+)$/u;

/** Splits a signed note into its text and signature lines; checks nothing cryptographic. */
export function parseNote(note: string): Note {
  if (!note.endsWith('\n')) throw new NoteError('a signed note ends with a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('a signed note has a blank line before its signatures');
  const text = note.slice(0, split + 1);
  for (const char of text)
    if (char !== '\n' && char.charCodeAt(0) < 0x20) throw new NoteError('the text of a note has control characters');
  const lines = note.slice(split + 2, -1).split('\n');
  const signatures = lines.map((line) => {
    const match = signatureLine.exec(line);
    if (!match?.[1] || !match[2]) throw new NoteError(`not a signature line: ${JSON.stringify(line)}`);
    const blob = decodeBase64(match[2], 'a signature');
    if (blob.length < 5) throw new NoteError('a signature is too short');
    return { name: match[1], keyId: blob.subarray(0, 4), signature: blob.subarray(4) };
  });
  if (signatures.length === 0) throw new NoteError('a signed note has at least one signature');
  return { text, signatures };
}

/**
 * The note's text once a signature by `key` checks out; a NoteError
 * otherwise. Signatures by other keys are passed over, as the spec asks.
 */
export function openNote(note: string, key: VerifierKey): string {
  const parsed = parseNote(note);
  const own = parsed.signatures.filter((signature) => signature.name === key.name && signature.keyId.equals(key.keyId));
  if (own.length === 0) throw new NoteError(`the note has no signature by ${key.name}`);
  const publicKey = ed25519PublicKey(key.publicKey);
  const text = Buffer.from(parsed.text, 'utf8');
  for (const signature of own) {
    if (signature.signature.length === 64 && verify(null, text, publicKey, signature.signature)) return parsed.text;
  }
  throw new NoteError(`the signature by ${key.name} does not match the note`);
}
