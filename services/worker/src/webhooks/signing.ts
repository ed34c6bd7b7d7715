import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks `webhook-signature` of one attempt: "v1," and the
 * base64 HMAC-SHA256 of "id.timestamp.body", keyed by the secret's bytes
 * (the base64 after "whsec_"). The timestamp is in seconds, and the same
 * as the attempt's `webhook-timestamp` header.
 */
export function signMessage(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')}`;
}
