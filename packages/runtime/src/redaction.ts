/**
 * What must never reach a log line: passwords, tokens, cookies, card data,
 * security answers, recovery codes, session ids and keys. Matched on the field's name, so a
 * new field called `…_password` or `…Token` is covered without a list to keep.
 */
const SECRET_NAME =
  /pass(word|wd|phrase)?|secret|token|cookie|authori[sz]ation|card_?num|card_?number|\bpan\b|cvv|cvc|security_?answer|api_?key|recovery_?code|reset_?code|private_?key|ledger_?log_?key|xprv|signature|session_?(id|key)|csrf/i;

export const REDACTED = '[redacted]';

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * A copy of `value` with every secret-named field replaced, at any depth it
 * walks: below MAX_SCRUB_DEPTH levels a value is left out whole (TOO_DEEP),
 * so no logged value can overflow the walk and nothing below it is written.
 */
export function scrubSecrets<T>(value: T): T {
  return scrub(value, new WeakSet(), 0) as T;
}

/** Deeper than any log line's own data; requests are refused past 32 levels before they are logged. */
export const MAX_SCRUB_DEPTH = 64;
export const TOO_DEEP = '[too deep]';

function scrub(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return looksLikeUrl(value) ? scrubUrl(value) : value;
  if (value === null || typeof value !== 'object') return value;
  // Errors and buffers are serialized by pino itself; only plain data is walked.
  if (value instanceof Error || ArrayBuffer.isView(value) || value instanceof Date) return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_SCRUB_DEPTH) return TOO_DEEP;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, seen, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretName(key) && item !== null && item !== undefined ? REDACTED : scrub(item, seen, depth + 1);
  }
  return copy;
}

function looksLikeUrl(value: string): boolean {
  return value.includes('://') || (value.startsWith('/') && value.includes('?'));
}

/**
 * Masks the password of a connection URL and the values of secret-named query
 * parameters (`/checkout?token=…`), keeping the rest readable.
 */
export function scrubUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@\s]*):[^@/\s]*@/i, `$1:${REDACTED}@`)
    .replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (whole, separator: string, name: string) =>
      isSecretName(decodeURIComponentSafe(name)) ? `${separator}${name}=${REDACTED}` : whole,
    );
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
