import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controlCharacterAt, hasControlCharacter } from './fields.ts';

/** The rule as a plain recursive walk: what the walk with its own stack must answer on any value. */
function recursiveControlCharacterAt(value: unknown, path: readonly string[] = []): string | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? path.join('.') || 'body' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (hasControlCharacter(key)) return [...path, '?'].join('.');
    const found = recursiveControlCharacterAt(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

describe('controlCharacterAt', () => {
  it('names the first string or key with a control character, in order, as a recursive walk does', () => {
    const text = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('a\u0000', '\u0007', 'x\ny'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(text, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), (value, path) => {
        expect(controlCharacterAt(value, path)).toBe(recursiveControlCharacterAt(value, path));
      }),
      { numRuns: 500 },
    );
  });

  it('walks a value nested 100,000 deep without overflowing, and names the way down', () => {
    let value: unknown = 'bell\u0007';
    for (let level = 0; level < 100_000; level += 1) value = level % 2 === 0 ? [value] : { a: value };
    const found = controlCharacterAt(value);
    expect(found?.split('.')).toHaveLength(100_000);
    expect(found?.startsWith('a.0.a.0')).toBe(true);
    let clean: unknown = 'fine';
    for (let level = 0; level < 100_000; level += 1) clean = [clean];
    expect(controlCharacterAt(clean)).toBeNull();
  });
});
