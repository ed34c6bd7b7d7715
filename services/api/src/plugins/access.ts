import { controlCharacterAt, errorCodes } from '@peeks/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuse } from './error-envelope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call an /api route without being signed in: 'public' (anyone),
     * 'processor' (the sandbox processor's platform calls, which check their
     * own credential). Left out, the route needs a signed-in session.
     */
    access?: 'public' | 'processor';
  }
}

/**
 * Signed in unless the route says otherwise (issue 21, item 4): every /api
 * route needs a signed-in session by default, checked on request, before
 * its body is read or validated, so a signed-out caller learns nothing but
 * 401 from any route. Runs after the CSRF check, which answers first.
 */
export const access = fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const declared = request.routeOptions.config.access;
      if (!request.url.startsWith('/api/') || request.is404 || declared !== undefined) {
        done();
        return;
      }
      done(request.session?.userId == null ? refuse(401, errorCodes.notSignedIn) : undefined);
    });
    return Promise.resolve();
  },
  { name: 'access', dependencies: ['sessions', 'csrf'] },
);

/**
 * No control character (NUL included: Postgres text cannot hold it) in any
 * string of a request's body or query, refused with 400 by the contracts'
 * shared rule before any route's own validation runs.
 */
export const noControlCharacters = fp(
  (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => {
      const field = controlCharacterAt(request.body) ?? controlCharacterAt(request.query);
      done(field === null ? undefined : refuse(400, errorCodes.invalidArguments, { field }));
    });
    return Promise.resolve();
  },
  { name: 'no-control-characters' },
);
