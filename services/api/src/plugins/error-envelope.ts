import {
  errorCatalogue,
  errorCodes,
  ledgerRefusalCodes,
  ledgerRefusalText,
  type ErrorCode,
  type ErrorEnvelope,
} from '@peeks/contracts';
import { CardProcessorUnavailable, PROCESSOR_UNAVAILABLE } from '@peeks/card-processor';
import { IdempotencyKeyReused, InvalidEvent, isDatabaseUnavailable, StreamVersionConflict } from '@peeks/db';
import { LedgerRuleViolation } from '@peeks/ledger';
import { LedgerQueueFull } from '@peeks/ledger-store';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@peeks/runtime';
import { InvalidInput } from './zod-schemas.ts';

/** An error a handler throws on purpose: it reaches the client as it is. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errors: ErrorEnvelope['errors'];
  /** Fields the envelope carries beside its own (a stale quote's fresh one). */
  readonly extra: Record<string, unknown>;
  constructor(
    statusCode: number,
    message: string,
    errors: ErrorEnvelope['errors'] = [],
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errors = errors;
    this.extra = extra;
  }
}

/** A refusal with one catalogue code, optionally under a field and with a more specific text. */
export function refuse(
  statusCode: number,
  code: ErrorCode,
  detail: { field?: string; message?: string } = {},
): ApiError {
  const message = detail.message ?? errorCatalogue[code];
  return new ApiError(statusCode, message, [
    { code, ...(detail.field === undefined ? {} : { field: detail.field }), message },
  ]);
}

function send(
  reply: FastifyReply,
  statusCode: number,
  message: string,
  errors: ErrorEnvelope['errors'],
  extra: Record<string, unknown> = {},
) {
  // The request id lets a client quote the one log line that explains its failure.
  const body: ErrorEnvelope = { ...extra, response: 'error', message, errors, request_id: reply.request.id };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

/** About as long as PostgreSQL takes to restart. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

const fromCode = (code: keyof typeof errorCatalogue) => ({ code, message: errorCatalogue[code] });

/** What the client is told for an error. Anything unforeseen is a plain 500 without details. */
function envelopeFor(error: FastifyError | Error): {
  statusCode: number;
  message: string;
  errors: ErrorEnvelope['errors'];
  retryAfterSeconds?: number;
  extra?: Record<string, unknown>;
} {
  if (error instanceof ApiError)
    return { statusCode: error.statusCode, message: error.message, errors: error.errors, extra: error.extra };
  // Nothing was done: the client may send the same request again (with its Idempotency-Key) after Retry-After.
  if (error instanceof LedgerQueueFull)
    return {
      statusCode: 503,
      message: errorCatalogue[errorCodes.ledgerBusy],
      errors: [fromCode(errorCodes.ledgerBusy)],
      retryAfterSeconds: error.retryAfterSeconds,
    };
  // The card processor did not answer: nothing is lost, and the same request again is safe.
  if (error instanceof CardProcessorUnavailable)
    return {
      statusCode: 503,
      message: PROCESSOR_UNAVAILABLE,
      errors: [{ code: errorCodes.unavailable, message: PROCESSOR_UNAVAILABLE }],
    };
  if (error instanceof InvalidInput) return { statusCode: 400, message: error.message, errors: error.problems };
  if (error instanceof StreamVersionConflict)
    return { statusCode: 409, message: errorCatalogue[errorCodes.conflict], errors: [fromCode(errorCodes.conflict)] };
  if (error instanceof IdempotencyKeyReused) {
    return {
      statusCode: 409,
      message: errorCatalogue[errorCodes.idempotencyKeyReused],
      errors: [fromCode(errorCodes.idempotencyKeyReused)],
    };
  }
  // A wallet or transaction that is not there (the 404xx codes) is 404; any other refusal a business rule.
  if (error instanceof LedgerRuleViolation) {
    const code = ledgerRefusalCodes[error.code];
    return {
      statusCode: code >= 40400 && code < 40500 ? 404 : 422,
      message: ledgerRefusalText(error.code, error.from),
      errors: [{ code, message: ledgerRefusalText(error.code, error.from) }],
    };
  }
  if (error instanceof InvalidEvent)
    return {
      statusCode: 400,
      message: errorCatalogue[errorCodes.invalidArguments],
      errors: [fromCode(errorCodes.invalidArguments)],
    };
  // The database went away mid-request (a restart, a failover): the same request may come again, with its Idempotency-Key.
  if (isDatabaseUnavailable(error))
    return {
      statusCode: 503,
      message: errorCatalogue[errorCodes.unavailable],
      errors: [fromCode(errorCodes.unavailable)],
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };

  // fastify's own client errors: bad JSON, too large, wrong content type, ...
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (statusCode === 413)
    return {
      statusCode,
      message: errorCatalogue[errorCodes.payloadTooLarge],
      errors: [fromCode(errorCodes.payloadTooLarge)],
    };
  if (statusCode === 415)
    return {
      statusCode,
      message: errorCatalogue[errorCodes.unsupportedMediaType],
      errors: [fromCode(errorCodes.unsupportedMediaType)],
    };
  if (statusCode >= 400 && statusCode < 500) {
    return { statusCode, message: error.message, errors: [{ code: errorCodes.invalidFormat, message: error.message }] };
  }
  return { statusCode: 500, message: errorCatalogue[errorCodes.internal], errors: [fromCode(errorCodes.internal)] };
}

/**
 * Every failure leaves as the platform's error envelope, including fastify's
 * own (bad JSON, body too large, unknown route). Stacks stay in the log.
 */
export const errorEnvelope = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const described = envelopeFor(error);
      if (described.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(described.retryAfterSeconds));
        request.log.warn({ err: error.message }, 'request turned away: try again later');
      } else if (described.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.debug({ err: error }, 'request refused');
      return send(reply, described.statusCode, described.message, described.errors, described.extra);
    });

    app.setNotFoundHandler((request, reply) =>
      send(reply, 404, errorCatalogue[errorCodes.notFound], [
        {
          ...fromCode(errorCodes.notFound),
          message: `No route for ${request.method} ${request.url.split('?')[0] ?? ''}`,
        },
      ]),
    );
  },
  { name: 'error-envelope' },
);

/**
 * The router's own refusals, before any route or hook runs (fastify's
 * `frameworkErrors`): a path that is not valid percent-encoding, or a path
 * parameter over the router's length limit. Without this they would leave
 * in fastify's own shape, not the envelope.
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void send(reply, 400, errorCatalogue[errorCodes.invalidFormat], [
    { code: errorCodes.invalidFormat, field: 'path', message: error.message },
  ]);
}

/** Node's own refusals, by its error code; anything else it cannot read as HTTP is 400. */
const CLIENT_ERRORS: Record<string, { statusCode: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { statusCode: 431, message: 'The URL or the headers are too long' },
  ERR_HTTP_REQUEST_TIMEOUT: { statusCode: 408, message: 'The request took too long to arrive' },
};
const NOT_HTTP = { statusCode: 400, message: 'The request could not be read as HTTP' };

/**
 * Node's own refusals, before fastify has a request (fastify's
 * `clientErrorHandler`): a URL and headers over Node's 16 KiB are 431, a
 * request too slow to arrive 408, anything not HTTP 400. Without this they
 * would leave in fastify's own JSON, not the envelope. There is no request
 * to take an id from, so the answer makes one and logs it.
 */
export function clientError(log: Logger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { statusCode, message } = CLIENT_ERRORS[error.code] ?? NOT_HTTP;
    const requestId = randomUUID();
    const body: ErrorEnvelope = {
      response: 'error',
      message,
      errors: [{ code: errorCodes.invalidFormat, message }],
      request_id: requestId,
    };
    const text = JSON.stringify(body);
    log.info({ requestId, statusCode, code: error.code }, 'request refused by the HTTP parser');
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? ''}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
          `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
          `Connection: close\r\n\r\n${text}`,
      );
    socket.destroy(error);
  };
}
