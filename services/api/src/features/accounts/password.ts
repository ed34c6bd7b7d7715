import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const deriveKey = promisify(argon2);

export interface Argon2Parameters {
  /** KiB */
  memory: number;
  passes: number;
  parallelism: number;
}

/**
 * OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 50 ms on one
 * core here. Raise it and old hashes still verify, and are rehashed at the
 * next sign-in.
 */
export const CURRENT_PARAMETERS: Argon2Parameters = { memory: 19_456, passes: 2, parallelism: 1 };

const HASH_BYTES = 32;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

// node:crypto's argon2 runs on the libuv thread pool, so hashing never blocks the event loop.
function derive(password: string, salt: Buffer, parameters: Argon2Parameters, length: number): Promise<Buffer> {
  return deriveKey('argon2id', {
    message: password,
    nonce: salt,
    memory: parameters.memory,
    passes: parameters.passes,
    parallelism: parameters.parallelism,
    tagLength: length,
  });
}

/** A PHC string, `$argon2id$v=19$m=…,t=…,p=…$salt$hash`, that carries everything needed to verify it. */
export async function hashPassword(password: string, parameters = CURRENT_PARAMETERS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, parameters, HASH_BYTES);
  return `$argon2id$v=19$m=${parameters.memory},t=${parameters.passes},p=${parameters.parallelism}$${unpadded(salt)}$${unpadded(hash)}`;
}

function parse(stored: string): { parameters: Argon2Parameters; salt: Buffer; hash: Buffer } | null {
  const match = PHC.exec(stored);
  if (!match) return null;
  const hash = Buffer.from(match[5] ?? '', 'base64');
  if (hash.length < 16) return null;
  return {
    parameters: { memory: Number(match[1]), passes: Number(match[2]), parallelism: Number(match[3]) },
    salt: Buffer.from(match[4] ?? '', 'base64'),
    hash,
  };
}

/** Constant-time comparison against a stored hash; false for a malformed one. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.parameters, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when the hash was made with weaker parameters than today's. */
export function needsRehash(stored: string, parameters = CURRENT_PARAMETERS): boolean {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.parameters.memory < parameters.memory ||
    parsed.parameters.passes < parameters.passes ||
    parsed.parameters.parallelism !== parameters.parallelism
  );
}

let decoy: Promise<string> | undefined;

/**
 * Verifies against a hash nobody's password matches, so a sign-in with an
 * unknown name takes as long as one with a wrong password.
 */
export function verifyDecoy(password: string): Promise<boolean> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy.then((hash) => verifyPassword(password, hash));
}
