import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatCheckpoint, formatVerifierKey, keyIdOf } from '@peeks/log-verify';

/** The key that signs the ledger log's checkpoints, and the verifier key anyone checks them with. */
export interface LogKey {
  /** The key name, which is also the checkpoints' origin line. */
  name: string;
  /** `<name>+<key id>+<base64(0x01 ‖ public key)>` (c2sp.org/signed-note). */
  vkey: string;
  sign(text: string): string;
}

/** The DER prefix that makes a raw 32-byte Ed25519 seed a PKCS #8 private key. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export const LOG_KEY_FILE = 'ledger-log.key';

function logKeyOf(name: string, privateKey: KeyObject): LogKey {
  const raw = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x ?? '', 'base64url');
  const keyId = keyIdOf(name, raw);
  return {
    name,
    vkey: formatVerifierKey(name, raw),
    sign(text) {
      const blob = Buffer.concat([keyId, sign(null, Buffer.from(text, 'utf8'), privateKey)]);
      return `${text}\n\u2014 ${name} ${blob.toString('base64')}\n`;
    },
  };
}

/** A log key from its 32-byte Ed25519 seed, in base64 (what LEDGER_LOG_KEY holds). */
export function logKeyFromSeed(name: string, seed: string): LogKey {
  const bytes = Buffer.from(seed, 'base64');
  if (bytes.length !== 32) throw new Error('a ledger log key is a 32-byte Ed25519 seed in base64');
  return logKeyOf(name, createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, bytes]), format: 'der', type: 'pkcs8' }));
}

/**
 * The log key: LEDGER_LOG_KEY when set; otherwise the seed kept in
 * DATA_DIR/ledger-log.key, made on the first start with mode 0600. Two
 * processes starting together both end with the one that was written first.
 */
export async function loadLogKey(settings: { origin: string; seed?: string | undefined; dataDir: string }): Promise<{
  key: LogKey;
  made: boolean;
}> {
  if (settings.seed !== undefined) return { key: logKeyFromSeed(settings.origin, settings.seed), made: false };
  const file = path.resolve(settings.dataDir, LOG_KEY_FILE);
  await mkdir(settings.dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519.length).toString('base64');
  let made = true;
  try {
    await writeFile(file, `${seed}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    made = false;
  }
  return { key: logKeyFromSeed(settings.origin, (await readFile(file, 'utf8')).trim()), made };
}

/** A c2sp.org/tlog-checkpoint of the log, signed as a c2sp.org/signed-note. */
export function signCheckpoint(key: LogKey, treeSize: number, rootHash: Buffer): string {
  return key.sign(formatCheckpoint({ origin: key.name, treeSize, rootHash }));
}

/** The log key if there is one (LEDGER_LOG_KEY, or the file in DATA_DIR), never making one: what a verifier reads. */
export async function readLogKey(settings: {
  origin: string;
  seed?: string | undefined;
  dataDir: string;
}): Promise<LogKey | null> {
  if (settings.seed !== undefined) return logKeyFromSeed(settings.origin, settings.seed);
  try {
    return logKeyFromSeed(
      settings.origin,
      (await readFile(path.resolve(settings.dataDir, LOG_KEY_FILE), 'utf8')).trim(),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
