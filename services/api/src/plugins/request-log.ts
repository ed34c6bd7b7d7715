import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { scrubUrl } from '@peeks/runtime';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** A caller's X-Request-Id is kept when it is safe to log as is; otherwise a new one is made. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One JSON line per request, written when the response is done, labelled
 * with the request id that every other line of that request carries too.
 * Bodies and headers are never logged; secret query values are masked.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {
    // The single line is written on completion, when the outcome is known.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: scrubUrl(request.url),
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      clientIp: request.ip,
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

/** Echoes the request id back, so a client can quote it when reporting a problem. */
export const requestIdHeader = fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-id-header' },
);
