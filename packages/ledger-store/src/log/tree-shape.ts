import { nodeHash } from '@peeks/log-verify';

/**
 * The shape of the ledger log's Merkle tree (RFC 9162 §2.1), without I/O.
 * Every subtree the RFC's recursion names, [start, end), is a run of
 * complete, aligned subtrees, largest first; the store keeps each complete
 * subtree's hash once, so a root or a proof is a handful of lookups.
 */
export interface TreeNode {
  /** 0 for a leaf hash; a node of level l covers 2^l leaves. */
  level: number;
  /** Its place in its level: it covers leaves [index·2^level, (index+1)·2^level). */
  index: number;
}

export interface LeafRange {
  start: number;
  end: number;
}

/** [start, end) as complete, aligned subtrees, left to right. */
export function completeSubtrees({ start, end }: LeafRange): TreeNode[] {
  const nodes: TreeNode[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= end) level += 1;
    nodes.push({ level, index: at / 2 ** level });
    at += 2 ** level;
  }
  return nodes;
}

/**
 * MTH of a range the RFC's recursion names, from its complete subtrees' hashes
 * in order: the largest is the left child, the rest the right one.
 */
export function foldSubtrees(hashes: readonly Buffer[]): Buffer {
  const last = hashes.at(-1);
  if (last === undefined) throw new RangeError('an empty range has no subtree hash');
  return hashes.slice(0, -1).reduceRight((right, left) => nodeHash(left, right), last);
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The ranges whose hashes make PATH(m, D[0:n]) (RFC 9162 §2.1.3.1), deepest first. */
export function inclusionProofRanges(m: number, n: number): LeafRange[] {
  let [from, to, leaf] = [0, n, m];
  const outer: LeafRange[] = [];
  while (to - from > 1) {
    const k = largestPowerOfTwoBelow(to - from);
    if (leaf < k) {
      outer.push({ start: from + k, end: to });
      to = from + k;
    } else {
      outer.push({ start: from, end: from + k });
      from += k;
      leaf -= k;
    }
  }
  // The recursion appends on the way back up: the deepest sibling comes first.
  return outer.reverse();
}

/** The ranges whose hashes make PROOF(m, D[0:n]) (RFC 9162 §2.1.4.1), for 0 < m < n. */
export function consistencyProofRanges(m: number, n: number): LeafRange[] {
  if (m <= 0 || m >= n) return [];
  const outer: LeafRange[] = [];
  let [from, to, size, whole] = [0, n, m, true];
  for (;;) {
    if (size === to - from) {
      if (!whole) outer.push({ start: from, end: to });
      break;
    }
    const k = largestPowerOfTwoBelow(to - from);
    if (size <= k) {
      outer.push({ start: from + k, end: to });
      to = from + k;
    } else {
      outer.push({ start: from, end: from + k });
      from += k;
      size -= k;
      whole = false;
    }
  }
  return outer.reverse();
}

/**
 * Which levels the store keeps: every fourth above the leaves. A leaf hash
 * is recomputed from its leaf data and any other node from at most 8 stored
 * nodes or leaves below it, so an append writes about one node row for 15
 * leaves instead of two per leaf, and a proof still reads a bounded handful.
 */
export const STORED_LEVEL_STRIDE = 4;

export function isStoredLevel(level: number): boolean {
  return level > 0 && level % STORED_LEVEL_STRIDE === 0;
}

/** The stored nodes (level > 0) or leaves (level 0) a node is made of: a run of 2^(level − base) at `base`. */
export function storedCover(node: TreeNode): { base: number; start: number; count: number } {
  const base = node.level - (node.level % STORED_LEVEL_STRIDE);
  const count = 2 ** (node.level - base);
  return { base, start: node.index * count, count };
}

/** The root of a complete subtree from its 2^k nodes at one level, left to right. */
export function foldComplete(hashes: readonly Buffer[]): Buffer {
  let level = [...hashes];
  while (level.length > 1) {
    if (level.length % 2 !== 0) throw new RangeError('a complete subtree has a power-of-two width');
    level = Array.from({ length: level.length / 2 }, (_, at) =>
      nodeHash(level[2 * at] as Buffer, level[2 * at + 1] as Buffer),
    );
  }
  const [root] = level;
  if (!root) throw new RangeError('an empty run has no subtree hash');
  return root;
}

export interface HashedNode extends TreeNode {
  hash: Buffer;
}

/**
 * Appends leaf hashes to a tree of `size` leaves whose complete subtrees
 * (`completeSubtrees({ start: 0, end: size })`) have the hashes `frontier`:
 * returns every node completed on the way, leaves included (the store keeps
 * those of `isStoredLevel`), and the grown tree's frontier, which the next
 * append builds on.
 */
export function appendLeaves(
  size: number,
  frontier: readonly Buffer[],
  leaves: readonly Buffer[],
): { nodes: HashedNode[]; frontier: Buffer[] } {
  const shape = completeSubtrees({ start: 0, end: size });
  if (shape.length !== frontier.length) throw new RangeError('the frontier does not fit the tree size');
  const stack: HashedNode[] = shape.map((node, index) => ({ ...node, hash: frontier[index] as Buffer }));
  const nodes: HashedNode[] = [];
  leaves.forEach((hash, offset) => {
    let node: HashedNode = { level: 0, index: size + offset, hash };
    nodes.push(node);
    for (let top = stack.at(-1); top?.level === node.level; top = stack.at(-1)) {
      stack.pop();
      node = { level: node.level + 1, index: top.index / 2, hash: nodeHash(top.hash, node.hash) };
      nodes.push(node);
    }
    stack.push(node);
  });
  return { nodes, frontier: stack.map((node) => node.hash) };
}

/**
 * A tree grown one leaf hash at a time in memory, keeping only its complete
 * subtrees (at most one per level): its root at any size costs nothing to
 * take. `ledger:verify` rebuilds the log with it.
 */
export class GrowingTree {
  private readonly stack: { level: number; hash: Buffer }[] = [];
  size = 0;

  push(leaf: Buffer): void {
    let node = { level: 0, hash: leaf };
    for (let top = this.stack.at(-1); top?.level === node.level; top = this.stack.at(-1)) {
      this.stack.pop();
      node = { level: node.level + 1, hash: nodeHash(top.hash, node.hash) };
    }
    this.stack.push(node);
    this.size += 1;
  }

  root(): Buffer {
    return foldSubtrees(this.stack.map((node) => node.hash));
  }
}
