import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { RECOVERY_CODE_DIGITS, RECOVERY_CODE_LIFETIME_MS, RECOVERY_CODE_TRIES } from '@peeks/contracts';

/** A fresh code, uniformly random from node:crypto, e.g. "042917". */
export function newRecoveryCode(): string {
  return String(randomInt(0, 10 ** RECOVERY_CODE_DIGITS)).padStart(RECOVERY_CODE_DIGITS, '0');
}

/**
 * What is stored of a code: HMAC-SHA256 under a per-code random salt. A
 * six-digit code could still be brute-forced from a stolen row, so the real
 * protection is its 15-minute life and 5 tries; the hash keeps codes out of
 * plain sight in backups and query logs.
 */
export function hashRecoveryCode(code: string, salt: Buffer = randomBytes(16)): { salt: Buffer; hash: Buffer } {
  return { salt, hash: createHmac('sha256', salt).update(code).digest() };
}

export function recoveryCodeMatches(code: string, stored: { code_salt: Buffer; code_hash: Buffer }): boolean {
  return timingSafeEqual(hashRecoveryCode(code, stored.code_salt).hash, stored.code_hash);
}

export const recoveryCodeExpiry = (now: Date) => new Date(now.getTime() + RECOVERY_CODE_LIFETIME_MS);

export interface StoredRecoveryCode {
  attempts: number;
  expires_at: Date;
  used_at: Date | null;
}

/** Why a code can no longer be tried, or 'open' when it can. */
export type RecoveryCodeState = 'none' | 'expired' | 'tries-used' | 'open';

export function recoveryCodeState(code: StoredRecoveryCode | undefined, now: Date): RecoveryCodeState {
  if (!code || code.used_at !== null) return 'none';
  if (code.expires_at.getTime() <= now.getTime()) return 'expired';
  if (code.attempts >= RECOVERY_CODE_TRIES) return 'tries-used';
  return 'open';
}

/** "jane.doe@example.com" → "j***@e***.com": enough for the owner to recognise it. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const topLevel = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${topLevel}`;
}

const DECOY_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com', 'icloud.com'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A masked address for a username with no account, the same every time it is
 * asked for (on any API process), so step 2 of the form does not tell who
 * has an account.
 */
export function decoyMaskedEmail(username: string): string {
  const digest = createHash('sha256').update(`recovery-decoy:${username.toLowerCase()}`).digest();
  const letter = LETTERS[(digest[0] ?? 0) % LETTERS.length] ?? 'a';
  const domain = DECOY_DOMAINS[(digest[1] ?? 0) % DECOY_DOMAINS.length] ?? 'gmail.com';
  return maskEmail(`${letter}@${domain}`);
}
