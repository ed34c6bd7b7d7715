import {
  emptySuccess,
  errorCodes,
  loginFailedMessage,
  loginRequest,
  noInput,
  sessionResponse,
  signedInResponse,
  switchMerchantRequest,
  switchMerchantResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { endSession, signedIn, startSession } from '../../plugins/sessions.ts';
import {
  findByLogin,
  findMembership,
  hashPassword,
  needsRehash,
  replacePasswordHash,
  sessionUserOf,
  signIn,
  verifyDecoy,
  verifyPassword,
} from '../accounts/index.ts';
import { signInAttempt, signInFailed, signInSucceeded } from './sign-in-throttle.ts';

/** Sign-in, sign-out, the current session, and which merchant it acts for. */
export const sessionRoutes: FastifyPluginAsyncZod = (app) => {
  /** The web app's first call: it makes an anonymous session if there is none, for the CSRF token. */
  app.get(
    '/api/session',
    {
      config: {
        access: 'public',
        operation: {
          operationId: 'getSession',
          summary: 'Get the session and its CSRF token, opening one if needed',
          tag: 'sessions',
        },
      },
      schema: { response: { 200: sessionResponse } },
    },
    async (request, reply) => {
      const session = request.session ?? (await startSession(request, reply, null));
      const user =
        session.userId === null
          ? null
          : await sessionUserOf(app.db, { userId: session.userId, merchantId: session.merchantId });
      return { response: 'success' as const, user, csrfToken: session.csrfToken };
    },
  );

  app.post(
    '/api/login',
    {
      schema: { body: loginRequest, response: { 200: signedInResponse } },
      config: {
        access: 'public',
        rateLimit: app.rateLimits.login,
        operation: {
          operationId: 'login',
          summary: 'Sign in with username or e-mail and password',
          tag: 'sessions',
          errors: [401, 403],
          example: { username: 'demo_personal', password: 'Secret12' },
        },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const now = app.clock();
      const account = await findByLogin(app.db, username);
      // Counted before the check, so guesses sent at once meet the lock as guesses one after another do.
      const attempt = account ? await signInAttempt(app.db, account.user_id, request.ip, now) : null;
      if (attempt && attempt.waitMs > 0) {
        void reply.header('retry-after', String(Math.ceil(attempt.waitMs / 1000)));
        throw refuse(429, errorCodes.tooManyRequests);
      }
      // An unknown name costs a hash too, so the answer's timing does not tell which part was wrong.
      const matches = account ? await verifyPassword(password, account.password_hash) : await verifyDecoy(password);
      if (attempt && !matches) await signInFailed(app.db, attempt, now);
      if (!account || !attempt || !matches) throw refuse(401, errorCodes.loginFailed, { message: loginFailedMessage });
      await signInSucceeded(app.db, attempt, now);
      // Only the account's owner learns that it is closed.
      if (account.is_banned) throw refuse(403, errorCodes.userBlocked);
      if (account.account_status !== 'active') throw refuse(403, errorCodes.accountDisabled);
      if (needsRehash(account.password_hash))
        await replacePasswordHash(app.db, account.user_id, await hashPassword(password), app.clock());
      return signIn(request, reply, account.user_id);
    },
  );

  app.post(
    '/api/logout',
    {
      config: { access: 'public', operation: { operationId: 'logout', summary: 'Sign out', tag: 'sessions' } },
      schema: { body: noInput, response: { 200: emptySuccess } },
    },
    async (request, reply) => {
      await endSession(request, reply);
      return { response: 'success' as const };
    },
  );

  app.post(
    '/api/merchant/switch-merchant',
    {
      config: {
        operation: {
          operationId: 'switchMerchant',
          summary: 'Act as another merchant the user belongs to',
          tag: 'sessions',
          errors: [404],
        },
      },
      schema: { body: switchMerchantRequest, response: { 200: switchMerchantResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const merchantId = request.body.merchant_id;
      if (!(await findMembership(app.db, session.userId, merchantId))) throw refuse(404, errorCodes.merchantNotFound);
      await app.sessions.actFor(session.key, merchantId);
      return {
        response: 'success' as const,
        user: await sessionUserOf(app.db, { userId: session.userId, merchantId }),
      };
    },
  );

  return Promise.resolve();
};
