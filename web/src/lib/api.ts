import { errorCatalogue, errorEnvelope, type ApiErrorItem } from '@peeks/contracts';
import type { z } from 'zod';
import { i18n } from '../i18n/i18n.ts';
import { translatedValidation } from '../i18n/validation-texts.ts';

/** A refused or failed call: the envelope's errors, each with the text the user is shown. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: readonly ShownError[];
  /** The refusal's whole body, for the fields some refusals add (a 409's fresh quote). */
  readonly payload: unknown;

  constructor(status: number, errors: readonly ShownError[], payload: unknown = null) {
    super(errors.map((error) => error.text).join('; '));
    this.status = status;
    this.errors = errors;
    this.payload = payload;
    this.name = 'ApiError';
  }

  /** The texts to list above a form: one each, in order (spec §8: "a deduplicated error list"). */
  get texts(): string[] {
    return [...new Set(this.errors.map((error) => error.text))];
  }

  has(code: number): boolean {
    return this.errors.some((error) => error.code === code);
  }
}

export interface ShownError extends ApiErrorItem {
  /** What the user reads: the field rule's own words, or the catalogue text in their language. */
  text: string;
}

/** Codes a validation failure carries (4018: the birth-date rules); their message is the rule's own text ('Please enter Username'), not the code's. */
const FIELD_RULE_CODES = new Set([4001, 4002, 4003, 4018, 4215]);

const isCatalogued = (code: number): code is keyof typeof errorCatalogue => code in errorCatalogue;

/**
 * The spec's error texts (§8): a field rule speaks in its own words, any
 * other code through `error_codes.{code}`, and a code the catalogue does not
 * know as 'Something went wrong - {message}'.
 */
export function shownText(error: ApiErrorItem): string {
  if (error.field !== undefined && FIELD_RULE_CODES.has(error.code)) return translatedValidation(error.message, i18n.t);
  if (isCatalogued(error.code)) return i18n.t(`error_codes.${error.code}`);
  return i18n.t('errors.something_went_wrong_in', { detail: error.message });
}

let csrfToken: string | null = null;

/** The session's CSRF token, from GET /api/session, login or registration; sent on every state change. */
export function rememberCsrfToken(token: string | null) {
  csrfToken = token;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** A multipart body (an upload); the browser sets its content type. */
  form?: FormData;
  query?: Record<string, string | number>;
  signal?: AbortSignal;
  /** One key per attempt the user makes, so a retry of the same attempt is not done twice. */
  idempotencyKey?: string;
}

/**
 * Calls the API: JSON in and out, the CSRF token on POST, the envelope read
 * and checked against `schema`. Resolves with the parsed success; rejects
 * with an ApiError whose texts are ready to show.
 */
export async function callApi<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: CallOptions = {},
): Promise<z.output<Schema>> {
  const method = options.method ?? (options.body === undefined && options.form === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  const query = options.query
    ? `?${new URLSearchParams(Object.entries(options.query).map(([key, value]) => [key, String(value)])).toString()}`
    : '';

  let response: Response;
  try {
    response = await fetch(`/api${path}${query}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.form !== undefined
        ? { body: options.form }
        : options.body === undefined
          ? {}
          : { body: JSON.stringify(options.body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, [{ code: 0, message: 'network', text: i18n.t('errors.network') }]);
  }

  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return parsed.data;
    console.error('unexpected answer', path, parsed.error);
  }
  const refusal = errorEnvelope.safeParse(payload);
  const errors =
    refusal.success && refusal.data.errors.length > 0
      ? refusal.data.errors
      : [{ code: 50000, message: refusal.success ? refusal.data.message : response.statusText }];
  throw new ApiError(
    response.status,
    errors.map((error) => ({ ...error, text: shownText(error) })),
    payload,
  );
}
