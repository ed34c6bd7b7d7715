import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

/**
 * RFC 8785's reference test data (github.com/cyberphone/json-canonicalization,
 * testdata/input and testdata/outhex): each input, parsed, must be written
 * as exactly these UTF-8 bytes.
 */
const RFC_8785_VECTORS = [
  {
    name: 'arrays',
    input: String.raw`[ 56, { "d": true, "10": null, "1": [ ] } ]`,
    utf8: '5b35362c7b2231223a5b5d2c223130223a6e756c6c2c2264223a747275657d5d',
  },
  {
    name: 'french',
    input: String.raw`{ "peach": "This sorting order", "péché": "is wrong according to French", "pêche": "but canonicalization MUST", "sin":   "ignore locale" }`,
    utf8: '7b227065616368223a225468697320736f7274696e67206f72646572222c2270c3a96368c3a9223a2269732077726f6e67206163636f7264696e6720746f204672656e6368222c2270c3aa636865223a226275742063616e6f6e6963616c697a6174696f6e204d555354222c2273696e223a2269676e6f7265206c6f63616c65227d',
  },
  {
    name: 'structures',
    input: String.raw`{ "1": {"f": {"f": "hi","F": 5} ,"\n": 56.0}, "10": { }, "": "empty", "a": { }, "111": [ {"e": "yes","E": "no" } ], "A": { } }`,
    utf8: '7b22223a22656d707479222c2231223a7b225c6e223a35362c2266223a7b2246223a352c2266223a226869227d7d2c223130223a7b7d2c22313131223a5b7b2245223a226e6f222c2265223a22796573227d5d2c2241223a7b7d2c2261223a7b7d7d',
  },
  {
    name: 'unicode',
    input: String.raw`{ "Unnormalized Unicode":"A\u030a" }`,
    utf8: '7b22556e6e6f726d616c697a656420556e69636f6465223a2241cc8a227d',
  },
  {
    name: 'values',
    input: String.raw`{ "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false] }`,
    utf8: '7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b3333333333333333332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c22737472696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d',
  },
  {
    name: 'weird',
    input: String.raw`{ "\u20ac": "Euro Sign", "\r": "Carriage Return", "\u000a": "Newline", "1": "One", "\u0080": "Control\u007f", "\ud83d\ude02": "Smiley", "\u00f6": "Latin Small Letter O With Diaeresis", "\ufb33": "Hebrew Letter Dalet With Dagesh", "</script>": "Browser Challenge" }`,
    utf8: '7b225c6e223a224e65776c696e65222c225c72223a2243617272696167652052657475726e222c2231223a224f6e65222c223c2f7363726970743e223a2242726f77736572204368616c6c656e6765222c22c280223a22436f6e74726f6c7f222c22c3b6223a224c6174696e20536d616c6c204c6574746572204f205769746820446961657265736973222c22e282ac223a224575726f205369676e222c22f09f9882223a22536d696c6579222c22efacb3223a22486562726577204c65747465722044616c6574205769746820446167657368227d',
  },
];

describe('canonicalJson', () => {
  it.each(RFC_8785_VECTORS)("writes RFC 8785's $name vector byte for byte", ({ input, utf8 }) => {
    const text = canonicalJson(JSON.parse(input));
    expect(Buffer.from(text ?? '', 'utf8').toString('hex')).toBe(utf8);
  });

  it('writes what the canonicalize package writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes members named like array indexes in code unit order, as the package does', () => {
    const indexLike = fc.oneof(
      fc.nat({ max: 200 }).map(String),
      fc.constantFrom('0', '9', '10', '01', '4294967295', '__proto__'),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(indexLike, fc.string()), fc.jsonValue({ maxDepth: 2 })), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 1000 },
    );
    expect(canonicalJson({ 10: 'b', 9: 'a', x: { 2: 1, 1: 2 } })).toBe('{"10":"b","9":"a","x":{"1":2,"2":1}}');
  });

  it('keeps a member named __proto__ as a member', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"a":2}}') as object;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":2},"b":1}');
  });

  it('writes what JSON.stringify would for dates, toJSON, boxed values and members without a JSON form', () => {
    const at = new Date('2026-11-26T04:00:00.000Z');
    expect(
      canonicalJson({
        at,
        own: { toJSON: () => ({ z: 1, a: [2, undefined] }) },
        boxed: [Object(1), Object('s'), Object(false)],
        gone: undefined,
        fn: () => 1,
      }),
    ).toBe('{"at":"2026-11-26T04:00:00.000Z","boxed":[1,"s",false],"own":{"a":[2,null],"z":1}}');
    expect(canonicalJson(undefined)).toBeUndefined();
    expect(canonicalJson([undefined, () => 1])).toBe('[null,null]');
  });

  it('refuses what RFC 8785 cannot write', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(TypeError);
    expect(() => canonicalJson({ a: 'lone \ud800' })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ ['\udc00']: 1 })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ a: 1n })).toThrow(/BigInt/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/circular/);
  });
});
