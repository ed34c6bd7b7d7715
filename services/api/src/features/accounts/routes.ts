import {
  businessRegistration,
  errorCodes,
  lookupQuery,
  merchantLookupResponse,
  permResponse,
  personalRegistration,
  signedInResponse,
  userLookupResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { hashPassword } from './password.ts';
import { createBusinessUser, createPersonalUser, findMembership, findUser } from './queries.ts';
import { toMerchantInfo } from './session-user.ts';
import { sessionUserOf, signIn } from './sign-in.ts';

/**
 * Registration (the new user is signed in) and the signed-in user's own
 * records. Another user's id or a merchant the user does not belong to is
 * 404, as if it did not exist.
 */
export const accountRoutes: FastifyPluginAsyncZod = (app) => {
  const registration = { response: { 200: signedInResponse } };

  // The spec lists POST /user/user-register beside /register/personal, its payload "not shown": both
  // register a personal account with the same fields and answer the same way.
  const personal = [
    { url: '/api/register/personal', operationId: 'registerPersonal', summary: 'Register a personal account' },
    {
      url: '/api/user/user-register',
      operationId: 'userRegister',
      summary: 'Register a personal account (the same call as POST /api/register/personal)',
    },
  ] as const;
  for (const { url, operationId, summary } of personal)
    app.post(
      url,
      {
        schema: { ...registration, body: personalRegistration },
        config: {
          access: 'public',
          rateLimit: app.rateLimits.registration,
          operation: { operationId, summary, tag: 'accounts', errors: [409] },
        },
      },
      async (request, reply) => {
        const userId = await createPersonalUser(
          app.db,
          request.body,
          await hashPassword(request.body.password),
          app.clock(),
        );
        return signIn(request, reply, userId);
      },
    );

  app.post(
    '/api/register/business',
    {
      schema: { ...registration, body: businessRegistration },
      config: {
        access: 'public',
        rateLimit: app.rateLimits.registration,
        operation: {
          operationId: 'registerBusiness',
          summary: 'Register a business account and its merchant',
          tag: 'accounts',
          errors: [404, 409],
        },
      },
    },
    async (request, reply) => {
      const { userId } = await createBusinessUser(
        app.db,
        request.body,
        await hashPassword(request.body.password),
        app.clock(),
      );
      return signIn(request, reply, userId);
    },
  );

  const ownUser = (userId: number, id: number) => {
    if (id !== userId) throw refuse(404, errorCodes.userNotFound);
  };

  app.get(
    '/api/user/user-lookup',
    {
      config: {
        operation: { operationId: 'lookupUser', summary: 'Get the signed-in user', tag: 'accounts', errors: [404] },
      },
      schema: { querystring: lookupQuery, response: { 200: userLookupResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      ownUser(session.userId, request.query.id);
      return { response: 'success' as const, userInfo: await sessionUserOf(app.db, session) };
    },
  );

  app.get(
    '/api/user/perm',
    {
      config: {
        operation: {
          operationId: 'getPermissions',
          summary: "Get the signed-in user's permissions",
          tag: 'accounts',
          errors: [404],
        },
      },
      schema: { querystring: lookupQuery, response: { 200: permResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      ownUser(session.userId, request.query.id);
      const [user, membership] = await Promise.all([
        findUser(app.db, session.userId),
        session.merchantId === null ? undefined : findMembership(app.db, session.userId, session.merchantId),
      ]);
      return {
        response: 'success' as const,
        permissions: user?.perms ?? [],
        merchant_permissions: membership?.perms ?? [],
      };
    },
  );

  app.get(
    '/api/user/merchant-lookup',
    {
      config: {
        operation: {
          operationId: 'lookupMerchant',
          summary: 'Get a merchant the user belongs to',
          tag: 'accounts',
          errors: [404],
        },
      },
      schema: { querystring: lookupQuery, response: { 200: merchantLookupResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const membership = await findMembership(app.db, session.userId, request.query.id);
      if (!membership) throw refuse(404, errorCodes.merchantNotFound);
      return { response: 'success' as const, merchantInfo: toMerchantInfo(membership, membership.perms) };
    },
  );

  return Promise.resolve();
};
