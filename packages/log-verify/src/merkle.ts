import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 §2.1: a leaf is hashed as SHA-256(0x00 ‖ data)
 * and an interior node as SHA-256(0x01 ‖ left ‖ right), so a leaf can never
 * pass for a node.
 */
export function leafHash(data: Uint8Array): Buffer {
  return createHash('sha256').update(Uint8Array.of(0)).update(data).digest();
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(Uint8Array.of(1)).update(left).update(right).digest();
}

export class ProofError extends Error {}

const isOdd = (value: number) => value % 2 === 1;
const half = (value: number) => Math.floor(value / 2);
function isPowerOfTwo(value: number): boolean {
  let rest = value;
  while (rest > 1 && !isOdd(rest)) rest = half(rest);
  return rest === 1;
}

function checkSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ProofError(`${name} must be a whole number ≥ 0, not ${value}`);
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or a ProofError
 * when the proof has the wrong length for the leaf's place in the tree.
 */
export function rootFromInclusionProof(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Buffer {
  checkSize('leaf index', leafIndex);
  checkSize('tree size', treeSize);
  if (leafIndex >= treeSize) throw new ProofError(`leaf ${leafIndex} is not in a tree of ${treeSize}`);
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (sn === 0) throw new ProofError('the inclusion proof is longer than the tree is deep');
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError('the inclusion proof is shorter than the tree is deep');
  return r;
}

/** Whether `leaf` (a leaf hash) is at `leafIndex` of the tree of `treeSize` leaves whose root is `root`. */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): void {
  const computed = rootFromInclusionProof(leafIndex, treeSize, leaf, proof);
  if (!computed.equals(root)) throw new ProofError('the inclusion proof leads to another root');
}

/**
 * Checks that the tree of `secondSize` leaves with root `secondRoot` extends
 * the one of `firstSize` leaves with root `firstRoot` (RFC 9162 §2.1.4.2).
 * Equal sizes need an empty proof and equal roots; the empty tree is a
 * prefix of every tree.
 */
export function verifyConsistency(
  firstSize: number,
  secondSize: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): void {
  checkSize('first size', firstSize);
  checkSize('second size', secondSize);
  if (secondSize < firstSize) throw new ProofError(`a tree of ${secondSize} cannot extend one of ${firstSize}`);
  if (firstSize === secondSize || firstSize === 0) {
    if (proof.length !== 0) throw new ProofError('the consistency proof should be empty');
    if (firstSize === secondSize && !Buffer.from(firstRoot).equals(secondRoot))
      throw new ProofError('two trees of the same size have different roots');
    return;
  }
  if (proof.length === 0) throw new ProofError('the consistency proof is empty');
  const path = isPowerOfTwo(firstSize) ? [firstRoot, ...proof] : [...proof];
  let fn = firstSize - 1;
  let sn = secondSize - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  const [first, ...rest] = path;
  let fr: Buffer = Buffer.from(first ?? new Uint8Array());
  let sr: Buffer = Buffer.from(fr);
  for (const c of rest) {
    if (sn === 0) throw new ProofError('the consistency proof is longer than the tree is deep');
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError('the consistency proof is shorter than the tree is deep');
  if (!fr.equals(firstRoot)) throw new ProofError(`the proof does not lead to the first root (size ${firstSize})`);
  if (!sr.equals(secondRoot)) throw new ProofError(`the proof does not lead to the second root (size ${secondSize})`);
}
