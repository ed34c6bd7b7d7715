import { errorCodes, recipientLookupQuery, recipientResponse, userListQuery, userListResponse } from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { findRecipient, findRecipients } from './queries.ts';

/** Finding someone to send funds to: signed-in users only, a few public fields each. */
export const userRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  app.get(
    '/api/user/user-list',
    {
      schema: { querystring: userListQuery, response: { 200: userListResponse } },
      config: {
        rateLimit: app.rateLimits.recipientSearch,
        operation: {
          operationId: 'searchUsers',
          summary: 'Search recipients by name, username, e-mail or phone',
          tag: 'users',
        },
      },
    },
    async (request) => {
      const { userId } = signedIn(request);
      return { response: 'success' as const, users: await findRecipients(app.db, userId, request.query.search) };
    },
  );

  // Nobody, oneself, or an account that cannot receive all read 'User not found', as send-fund answers them.
  app.get(
    '/api/user/recipient-lookup',
    {
      config: {
        operation: { operationId: 'lookupRecipient', summary: 'Get one recipient', tag: 'users', errors: [404] },
      },
      schema: { querystring: recipientLookupQuery, response: { 200: recipientResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const user = await findRecipient(app.db, userId, request.query.guser_id);
      if (!user) throw refuse(404, errorCodes.recipientNotFound, { field: 'guser_id' });
      return { response: 'success' as const, user };
    },
  );

  return Promise.resolve();
};
