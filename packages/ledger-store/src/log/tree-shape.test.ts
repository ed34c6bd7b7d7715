import { leafHash } from '@peeks/log-verify';
import { referenceConsistencyProof, referenceInclusionProof, referenceRoot } from '@peeks/log-verify/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  completeSubtrees,
  consistencyProofRanges,
  foldSubtrees,
  inclusionProofRanges,
  type LeafRange,
} from './tree-shape.ts';

/** A tree grown in the given chunks through appendLeaves, as the store keeps it. */
function grow(chunks: number[]) {
  const stored = new Map<string, Buffer>();
  const data: Buffer[] = [];
  for (const chunk of chunks) {
    const size = data.length;
    const frontier = completeSubtrees({ start: 0, end: size }).map(
      (node) => stored.get(`${node.level}/${node.index}`) as Buffer,
    );
    const added = Array.from({ length: chunk }, (_, offset) => Buffer.from(`event ${size + offset}`));
    data.push(...added);
    for (const node of appendLeaves(size, frontier, added.map(leafHash))) {
      expect(stored.has(`${node.level}/${node.index}`)).toBe(false);
      stored.set(`${node.level}/${node.index}`, node.hash);
    }
  }
  const hashOf = (range: LeafRange) =>
    foldSubtrees(completeSubtrees(range).map((node) => stored.get(`${node.level}/${node.index}`) as Buffer));
  return { data, hashOf };
}

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
