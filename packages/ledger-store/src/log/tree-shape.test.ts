import { leafHash } from '@peeks/log-verify';
import { referenceConsistencyProof, referenceInclusionProof, referenceRoot } from '@peeks/log-verify/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  completeSubtrees,
  consistencyProofRanges,
  foldComplete,
  foldSubtrees,
  inclusionProofRanges,
  isStoredLevel,
  storedCover,
  type LeafRange,
  type TreeNode,
} from './tree-shape.ts';

/**
 * A tree grown in the given chunks through appendLeaves, as the store keeps
 * it: the leaf data, and the nodes of the stored levels only; every other
 * hash is folded from what it covers.
 */
function grow(chunks: number[]) {
  const stored = new Map<string, Buffer>();
  const data: Buffer[] = [];
  const hashOfNode = (node: TreeNode) => {
    const { base, start, count } = storedCover(node);
    return foldComplete(
      Array.from({ length: count }, (_, offset) =>
        base === 0
          ? leafHash(data[start + offset] as Buffer)
          : (stored.get(`${String(base)}/${String(start + offset)}`) as Buffer),
      ),
    );
  };
  for (const chunk of chunks) {
    const size = data.length;
    const frontier = completeSubtrees({ start: 0, end: size }).map(hashOfNode);
    const added = Array.from({ length: chunk }, (_, offset) => Buffer.from(`event ${String(size + offset)}`));
    data.push(...added);
    const grown = appendLeaves(size, frontier, added.map(leafHash));
    for (const node of grown.nodes) {
      if (!isStoredLevel(node.level)) continue;
      expect(stored.has(`${String(node.level)}/${String(node.index)}`)).toBe(false);
      stored.set(`${String(node.level)}/${String(node.index)}`, node.hash);
    }
    // The frontier it hands back is the one the store would give the next append.
    expect(grown.frontier).toEqual(completeSubtrees({ start: 0, end: data.length }).map(hashOfNode));
  }
  const hashOf = (range: LeafRange) => foldSubtrees(completeSubtrees(range).map(hashOfNode));
  return { data, hashOf, stored };
}

// Up to 320 leaves: stored nodes of levels 4 and 8 and folds from both.
const chunks = fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 8 });

describe('the tree as stored', () => {
  it('has the reference root at every size it is grown to, however the leaves came in', () => {
    fc.assert(
      fc.property(chunks, fc.nat(), (sizes, pick) => {
        const { data, hashOf } = grow(sizes);
        fc.pre(data.length > 0);
        const size = 1 + (pick % data.length);
        expect(hashOf({ start: 0, end: size })).toEqual(referenceRoot(data.slice(0, size)));
      }),
    );
  });

  it('gives the reference inclusion and consistency proofs', () => {
    fc.assert(
      fc.property(chunks, fc.nat(), fc.nat(), (sizes, pickSize, pickOther) => {
        const { data, hashOf } = grow(sizes);
        fc.pre(data.length > 0);
        const size = 1 + (pickSize % data.length);
        const leaf = pickOther % size;
        const tree = data.slice(0, size);
        expect(inclusionProofRanges(leaf, size).map(hashOf)).toEqual(referenceInclusionProof(leaf, tree));
        expect(consistencyProofRanges(leaf, size).map(hashOf)).toEqual(referenceConsistencyProof(leaf, tree));
      }),
    );
  });

  it('stores about one node for 15 leaves', () => {
    const { stored } = grow([300]);
    // 18 nodes of level 4 and one of level 8 cover 300 leaves.
    expect([...stored.keys()].sort()).toHaveLength(19);
    expect([...stored.keys()].filter((key) => key.startsWith('8/'))).toEqual(['8/0']);
  });

  it('splits a range into aligned complete subtrees', () => {
    expect(completeSubtrees({ start: 0, end: 13 })).toEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
    expect(completeSubtrees({ start: 8, end: 14 })).toEqual([
      { level: 2, index: 2 },
      { level: 1, index: 6 },
    ]);
  });
});
