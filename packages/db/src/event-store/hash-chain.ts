import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';
import { InvalidEvent } from './errors.ts';
import type { EventMetadata, JsonObject } from './types.ts';

/** The "previous hash" of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Exactly the fields an event's hash covers. */
export interface ChainedFields {
  streamId: string;
  streamVersion: number;
  type: string;
  data: JsonObject;
  metadata: EventMetadata;
  createdAt: Date;
}

/**
 * RFC 8785 (JCS) bytes of an event: the same for the object written and the
 * object read back from jsonb, whatever order Postgres keeps the keys in.
 */
export function canonicalEvent(fields: ChainedFields): string {
  let text: string | undefined;
  try {
    const { streamId, streamVersion, type, data, metadata, createdAt } = fields;
    // Named one by one: a StoredEvent passed in carries fields the hash does not cover.
    text = canonicalJson({ streamId, streamVersion, type, data, metadata, createdAt: createdAt.toISOString() });
  } catch (error) {
    throw new InvalidEvent(`event ${fields.type} is not canonical JSON: ${(error as Error).message}`, { cause: error });
  }
  if (text === undefined) throw new InvalidEvent(`event ${fields.type} has no JSON form`);
  // Postgres jsonb cannot hold U+0000; refuse it here rather than fail mid-append.
  if (text.includes('\\u0000')) throw new InvalidEvent(`event ${fields.type} contains a NUL character`);
  return text;
}

/** Hex bytes, as the previous hash must be. */
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * sha256(previous hash ‖ canonical event bytes), as lower-case hex. Node's
 * native SHA-256: every event of every transfer is hashed, and the
 * pure-JavaScript one took a twentieth of the API's CPU under bench:api.
 */
export function chainHash(prevHash: string, canonical: string): string {
  // Buffer.from would skip what is not hex; a broken previous hash must not hash as if it were shorter.
  if (!HEX.test(prevHash)) throw new InvalidEvent(`previous hash ${JSON.stringify(prevHash)} is not hex`);
  return createHash('sha256').update(Buffer.from(prevHash, 'hex')).update(canonical, 'utf8').digest('hex');
}
