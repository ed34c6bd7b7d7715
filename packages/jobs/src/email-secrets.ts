import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Database } from '@peeks/db';
import { isSecretName, REDACTED } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { platformSecret } from './platform-secrets.ts';

/**
 * The outbox keeps what a message needs until it is sent, but a secret in it
 * (a recovery code) is never plain text at rest: each secret-named field is
 * sealed with AES-256-GCM under a platform secret, opened only by the worker
 * that sends it, and replaced by '[redacted]' once it is sent.
 */
const PREFIX = 'sealed:v1:';
const KEY_NAME = 'email-outbox';

const keyOf = (db: Kysely<Database>) => platformSecret(db, KEY_NAME, new Date());

export async function sealEmailSecrets(
  db: Kysely<Database>,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const secretFields = Object.keys(payload).filter((name) => isSecretName(name) && typeof payload[name] === 'string');
  if (secretFields.length === 0) return payload;
  const key = await keyOf(db);
  const sealed = { ...payload };
  for (const name of secretFields) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const text = Buffer.concat([cipher.update(String(payload[name]), 'utf8'), cipher.final()]);
    sealed[name] = `${PREFIX}${[iv, cipher.getAuthTag(), text].map((part) => part.toString('base64url')).join('.')}`;
  }
  return sealed;
}

export async function openEmailSecrets(
  db: Kysely<Database>,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const sealedFields = Object.keys(payload).filter(
    (name) => typeof payload[name] === 'string' && payload[name].startsWith(PREFIX),
  );
  if (sealedFields.length === 0) return payload;
  const key = await keyOf(db);
  const opened = { ...payload };
  for (const name of sealedFields) {
    const [iv = '', tag = '', text = ''] = String(payload[name]).slice(PREFIX.length).split('.');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    opened[name] = Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]).toString('utf8');
  }
  return opened;
}

/** The payload as kept after sending: every secret-named field gone for good. */
export const spentEmailPayload = (payload: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, isSecretName(name) ? REDACTED : value]));
