import { walletOwnerOfSession } from '../payments/index.ts';
import { errorCodes } from '@peeks/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { LedgerActivityListener } from './ledger-activity.ts';
import { LiveHub } from './live-hub.ts';

export interface LiveOptions {
  /** How often sockets are pinged and their sessions checked; 30 s unless given. */
  sweepMs?: number;
}

/**
 * A browser's WebSocket carries its Origin. Refused unless it is this very
 * host, so no other site can open a socket on the visitor's cookie
 * (cross-site WebSocket hijacking). A client that sends no Origin is not a
 * browser, and can only hold the cookie if it was given it.
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!URL.canParse(origin)) return false;
  return new URL(origin).host === host;
}

function sameOriginOnly(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  done(
    sameOrigin(request.headers.origin, request.headers.host)
      ? undefined
      : refuse(403, errorCodes.notAuthorized, { field: 'Origin' }),
  );
}

/**
 * GET /api/live: the signed-in viewer's balance and new activity, pushed
 * within moments of each commit (see liveMessage in the contracts). Fed by
 * the ledger_activity notifications of migration 0010 through one LISTEN
 * connection per process (app.notifications). A plain GET, without the upgrade, is 426.
 */
export const liveRoutes: FastifyPluginAsyncZod<LiveOptions> = (app, options) => {
  const listener = new LedgerActivityListener(app.notifications, app.log);
  const hub = new LiveHub({ db: app.db, listener, log: app.log, clock: app.clock, sweepMs: options.sweepMs ?? 30_000 });
  app.sessions.watch((key) => {
    hub.sessionChanged(key);
  });
  app.addHook('onClose', () => {
    hub.close();
    return Promise.resolve();
  });

  app.addHook('onRequest', requireSignIn);
  app.route({
    method: 'GET',
    url: '/api/live',
    // Its own hook answers a signed-out upgrade (requireSignIn above).
    config: {
      access: 'public',
      operation: {
        operationId: 'openLiveUpdates',
        summary: 'Open the live updates WebSocket',
        tag: 'wallet',
        errors: [403],
        caller: 'signed-in',
        description:
          'A WebSocket (upgrade from GET, same origin only): balance on open, then activity, balance and deposit messages.',
      },
    },
    onRequest: sameOriginOnly,
    handler: () => {
      throw refuse(426, errorCodes.invalidFormat, { message: 'Connect with a WebSocket' });
    },
    wsHandler: (socket, request) => {
      const session = signedIn(request);
      return hub.join(socket, walletOwnerOfSession(session), session.key);
    },
  });
  return Promise.resolve();
};
