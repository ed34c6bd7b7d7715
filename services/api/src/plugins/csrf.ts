import { timingSafeEqual } from 'node:crypto';
import { errorCodes } from '@peeks/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuse } from './error-envelope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for the calls of an external party served here (the sandbox card processor), which carry no session. */
    csrf?: boolean;
  }
}

const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Synchronizer-token CSRF defence: every request that changes state carries
 * its session's token (from GET /api/session) in X-CSRF-Token, else 403.
 * Sign-in and registration too, so no other site can sign a browser in to an
 * account of its choosing. Checked before the body is even read. A route
 * with `config: { csrf: false }` is left out: it belongs to another party.
 */
export const csrf = fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.csrf === false) {
        done();
        return;
      }
      const given = request.headers['x-csrf-token'];
      const carriesToken =
        typeof given === 'string' && request.session !== null && sameToken(given, request.session.csrfToken);
      done(CHANGES_STATE.has(request.method) && !carriesToken ? refuse(403, errorCodes.csrfRefused) : undefined);
    });
  },
  { name: 'csrf', dependencies: ['sessions'] },
);
