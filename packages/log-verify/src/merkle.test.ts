import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafHash, ProofError, rootFromInclusionProof, verifyConsistency, verifyInclusion } from './merkle.ts';
import { referenceConsistencyProof, referenceInclusionProof, referenceRoot } from './testing/reference-tree.ts';

const h = (hex: string) => Buffer.from(hex, 'hex');

// The test vectors of RFC 6962's reference code (certificate-transparency,
// merkle_tree_test), the same hashing RFC 9162 §2.1 keeps.
const leaves = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  h,
);
const roots = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(h);
const root = (size: number) => roots[size - 1] ?? Buffer.alloc(0);

describe('published vectors', () => {
  it('the reference tree has the published roots', () => {
    for (let size = 1; size <= 8; size += 1) expect(referenceRoot(leaves.slice(0, size))).toEqual(root(size));
    expect(referenceRoot([]).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('checks the published inclusion proofs', () => {
    const proof = [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ].map(h);
    expect(() => {
      verifyInclusion(5, 8, leafHash(leaves[5] ?? h('')), proof, root(8));
    }).not.toThrow();
    expect(() => {
      verifyInclusion(4, 8, leafHash(leaves[5] ?? h('')), proof, root(8));
    }).toThrow(ProofError);
    expect(() => {
      verifyInclusion(2, 3, leafHash(leaves[2] ?? h('')), [root(2)], root(3));
    }).not.toThrow();
    expect(referenceInclusionProof(5, leaves)).toEqual(proof);
  });

  it('checks the published consistency proofs', () => {
    const proof = [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ].map(h);
    expect(() => {
      verifyConsistency(6, 8, proof, root(6), root(8));
    }).not.toThrow();
    expect(() => {
      verifyConsistency(6, 8, proof, root(5), root(8));
    }).toThrow(ProofError);
    const short = [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ].map(h);
    expect(() => {
      verifyConsistency(2, 5, short, root(2), root(5));
    }).not.toThrow();
    expect(referenceConsistencyProof(6, leaves)).toEqual(proof);
  });
});

const tree = fc
  .integer({ min: 1, max: 70 })
  .map((size) => Array.from({ length: size }, (_, index) => Buffer.from(`leaf ${index}`)));

describe('against the reference tree', () => {
  it('every leaf of every tree proves its inclusion, and only at its own place', () => {
    fc.assert(
      fc.property(tree, fc.nat(), (data, pick) => {
        const index = pick % data.length;
        const proof = referenceInclusionProof(index, data);
        const leaf = leafHash(data[index] ?? Buffer.alloc(0));
        expect(rootFromInclusionProof(index, data.length, leaf, proof)).toEqual(referenceRoot(data));
        if (data.length > 1) {
          const other = (index + 1) % data.length;
          expect(() => {
            verifyInclusion(other, data.length, leaf, proof, referenceRoot(data));
          }).toThrow(ProofError);
        }
      }),
    );
  });

  it('every prefix proves consistency with the whole tree; a changed prefix does not', () => {
    fc.assert(
      fc.property(tree, fc.nat(), fc.nat(), (data, pick, flip) => {
        const size = pick % (data.length + 1);
        const proof = referenceConsistencyProof(size, data);
        const first = referenceRoot(data.slice(0, size));
        expect(() => {
          verifyConsistency(size, data.length, proof, first, referenceRoot(data));
        }).not.toThrow();
        if (size > 0) {
          const changed = data.map((leaf, index) => (index === flip % size ? Buffer.from('forged') : leaf));
          expect(() => {
            verifyConsistency(size, data.length, proof, referenceRoot(changed.slice(0, size)), referenceRoot(data));
          }).toThrow(ProofError);
        }
      }),
    );
  });

  it('a proof with a hash changed, dropped or added fails', () => {
    fc.assert(
      fc.property(tree, fc.nat(), fc.nat(), fc.constantFrom('change', 'drop', 'add'), (data, pick, at, how) => {
        fc.pre(data.length > 1);
        const size = 1 + (pick % (data.length - 1));
        const proof = referenceConsistencyProof(size, data);
        const spot = at % proof.length;
        const bad =
          how === 'change'
            ? proof.map((hash, index) => (index === spot ? leafHash(hash) : hash))
            : how === 'drop'
              ? proof.filter((_, index) => index !== spot)
              : [...proof, leafHash(Buffer.from('extra'))];
        expect(() => {
          verifyConsistency(size, data.length, bad, referenceRoot(data.slice(0, size)), referenceRoot(data));
        }).toThrow(ProofError);
      }),
    );
  });

  it('refuses sizes that cannot be', () => {
    expect(() => {
      verifyConsistency(5, 4, [], root(5), root(4));
    }).toThrow(/cannot extend/u);
    expect(() => {
      verifyConsistency(4, 4, [], root(4), root(5));
    }).toThrow(/different roots/u);
    expect(() => {
      verifyInclusion(8, 8, leafHash(h('')), [], root(8));
    }).toThrow(/not in a tree/u);
  });
});
