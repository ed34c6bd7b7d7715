import { errorCodes } from '@peeks/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuse } from './error-envelope.ts';

/** Deeper than any request the API takes (its schemas go a few levels down), far below what overflows a walk. */
export const MAX_JSON_DEPTH = 32;

export type JsonTextProblem = 'nested too deep' | 'lone surrogate';

const HEX4 = /^[0-9A-Fa-f]{4}$/;
const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * What makes a JSON text unfit for the request path even when JSON.parse
 * takes it: arrays and objects nested deeper than `maxDepth` (every later
 * walk over the body would recurse that deep), or a string holding a lone
 * surrogate, raw or as a `\uD800` escape (no canonical JSON, hence no
 * Idempotency-Key fingerprint, exists for it). One linear pass that knows
 * when it is inside a string; it stops at the first problem. Text that is
 * not JSON at all is left for JSON.parse to refuse.
 */
export function jsonTextProblem(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextProblem | null {
  if (!text.isWellFormed()) return 'lone surrogate';
  let depth = 0;
  let inString = false;
  // The last thing read in a string was a high surrogate escape: only a low surrogate escape may follow.
  let highPending = false;
  for (let at = 0; at < text.length; at += 1) {
    const unit = text.charCodeAt(at);
    if (!inString) {
      if (unit === 0x22) inString = true;
      else if (unit === 0x5b || unit === 0x7b) {
        depth += 1;
        if (depth > maxDepth) return 'nested too deep';
      } else if (unit === 0x5d || unit === 0x7d) depth -= 1;
      continue;
    }
    if (unit === 0x5c) {
      const escaped = text.charCodeAt(at + 1);
      const hex = escaped === 0x75 ? text.slice(at + 2, at + 6) : '';
      const code = HEX4.test(hex) ? Number.parseInt(hex, 16) : -1;
      at += code === -1 ? 1 : 5;
      if (isLowSurrogate(code) && highPending) highPending = false;
      else if (highPending || isLowSurrogate(code)) return 'lone surrogate';
      else highPending = isHighSurrogate(code);
      continue;
    }
    if (highPending) return 'lone surrogate';
    if (unit === 0x22) inString = false;
  }
  return null;
}

const MESSAGES: Record<JsonTextProblem, string> = {
  'nested too deep': `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
  'lone surrogate': 'The request body holds text with a lone surrogate (an unpaired \\ud800 to \\udfff)',
};

/**
 * JSON bodies pass `jsonTextProblem` before fastify's own parser (which
 * keeps its __proto__ and constructor checks) reads them: a body nested
 * past the limit or with a lone surrogate is a 400 in the envelope, before
 * any hook or route walks it.
 */
export const jsonBody = fp(
  (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const problem = jsonTextProblem(body as string);
      if (problem === null) {
        void parse(request, body as string, done);
        return;
      }
      done(refuse(400, errorCodes.invalidFormat, { field: 'body', message: MESSAGES[problem] }), undefined);
    });
    return Promise.resolve();
  },
  { name: 'json-body' },
);
