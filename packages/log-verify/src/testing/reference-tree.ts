import { createHash } from 'node:crypto';

/**
 * RFC 9162 §2.1's definitions written as they read, recursion and all: slow,
 * and plain enough to check the real code against.
 */
const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]). */
export function referenceRoot(leaves: readonly Uint8Array[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(Uint8Array.of(0), leaves[0] ?? new Uint8Array());
  const k = largestPowerOfTwoBelow(leaves.length);
  return sha256(Uint8Array.of(1), referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)));
}

/** PATH(m, D[n]). */
export function referenceInclusionProof(m: number, leaves: readonly Uint8Array[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = largestPowerOfTwoBelow(leaves.length);
  return m < k
    ? [...referenceInclusionProof(m, leaves.slice(0, k)), referenceRoot(leaves.slice(k))]
    : [...referenceInclusionProof(m - k, leaves.slice(k)), referenceRoot(leaves.slice(0, k))];
}

function subproof(m: number, leaves: readonly Uint8Array[], whole: boolean): Buffer[] {
  if (m === leaves.length) return whole ? [] : [referenceRoot(leaves)];
  const k = largestPowerOfTwoBelow(leaves.length);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), whole), referenceRoot(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), referenceRoot(leaves.slice(0, k))];
}

/** PROOF(m, D[n]), for 0 < m < n; empty otherwise. */
export function referenceConsistencyProof(m: number, leaves: readonly Uint8Array[]): Buffer[] {
  if (m <= 0 || m >= leaves.length) return [];
  return subproof(m, leaves, true);
}
