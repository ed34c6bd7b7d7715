/**
 * RFC 8785 (JCS) text of a JSON value: members sorted by their names' UTF-16
 * code units, numbers and strings as ECMAScript's JSON.stringify writes them,
 * no white space. Like JSON.stringify, it honours toJSON, leaves out
 * members whose value has no JSON form and writes such array items as null;
 * undefined when the value itself has none.
 *
 * Every event's hash and every Idempotency-Key's fingerprint goes through
 * it. It copies the value with its members in order and lets the engine's
 * native JSON.stringify write the copy, which costs less than writing each
 * member in JavaScript as the `canonicalize` package (the oracle of its
 * tests) does (docs/benchmarks/ledger.md). An object with a member named
 * like an array index ("7") cannot keep its members in that order (the
 * engine lists such names first, by number), nor one named "__proto__" on a
 * plain object, so such a value is written member by member instead.
 *
 * Throws, as RFC 8785 asks, on NaN and ±Infinity and on strings with a lone
 * surrogate; also on BigInt and on nesting deeper than MAX_DEPTH (a cycle).
 */
export function canonicalJson(value: unknown): string | undefined {
  const ordered = { indexNames: false };
  const copy = inOrder(value, 0, ordered);
  return ordered.indexNames ? written(value, 0) : JSON.stringify(copy);
}

/** Deeper than any event or request body; a cycle reaches it at once. */
const MAX_DEPTH = 500;
const INDEX_NAME = /^(?:0|[1-9]\d*)$/;

/** `value` as JSON.stringify would see it, objects copied with their members sorted. */
function inOrder(value: unknown, depth: number, ordered: { indexNames: boolean }): unknown {
  const plain = primitive(value);
  if (plain !== OBJECT) return plain;
  if (depth >= MAX_DEPTH) throw new TypeError(`nested deeper than ${MAX_DEPTH} levels, or circular`);
  const json = jsonOf(value as object);
  if (json !== value) return inOrder(json, depth + 1, ordered);
  if (Array.isArray(json)) return json.map((item: unknown) => inOrder(item, depth + 1, ordered));
  const object = json as Record<string, unknown>;
  // The default sort compares UTF-16 code units, the order RFC 8785 asks for.
  const names = Object.keys(object).sort();
  const copy: Record<string, unknown> = {};
  for (const name of names) {
    if (!name.isWellFormed()) throw new TypeError('a member name holds a lone surrogate');
    const first = name.charCodeAt(0);
    if ((first >= 48 && first <= 57 && INDEX_NAME.test(name)) || name === '__proto__') ordered.indexNames = true;
    copy[name] = inOrder(object[name], depth + 1, ordered);
  }
  return copy;
}

/** The same text, written member by member (objects with index-like member names). */
function written(value: unknown, depth: number): string | undefined {
  const plain = primitive(value);
  if (plain !== OBJECT) return JSON.stringify(plain);
  if (depth >= MAX_DEPTH) throw new TypeError(`nested deeper than ${MAX_DEPTH} levels, or circular`);
  const json = jsonOf(value as object);
  if (json !== value) return written(json, depth + 1);
  if (Array.isArray(json)) return `[${json.map((item: unknown) => written(item, depth + 1) ?? 'null').join(',')}]`;
  const object = json as Record<string, unknown>;
  const members: string[] = [];
  for (const name of Object.keys(object).sort()) {
    if (!name.isWellFormed()) throw new TypeError('a member name holds a lone surrogate');
    const member = written(object[name], depth + 1);
    if (member !== undefined) members.push(`${JSON.stringify(name)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

const OBJECT = Symbol('object');

/** A value that is not an object as JSON.stringify writes it (checked), or OBJECT. */
function primitive(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) throw new TypeError('a string holds a lone surrogate');
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no JSON form`);
      return value;
    case 'bigint':
      throw new TypeError('a BigInt has no JSON form');
    case 'object':
      return value === null ? null : OBJECT;
    default:
      // booleans as they are; undefined, functions and symbols JSON.stringify leaves out.
      return typeof value === 'boolean' ? value : undefined;
  }
}

/** What JSON.stringify writes in an object's place: its toJSON, a boxed primitive's value, or itself. */
function jsonOf(value: object): unknown {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return (value as { toJSON: () => unknown }).toJSON();
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return value;
}
