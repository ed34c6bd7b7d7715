import { userListQuery, userListResponse } from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { findRecipients } from './queries.ts';

/** Finding someone to send funds to: signed-in users only, a few public fields each. */
export const userRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  app.get('/api/user/user-list', { schema: { querystring: userListQuery, response: { 200: userListResponse } }, config: { rateLimit: app.rateLimits.recipientSearch } }, async (request) => {
    const { userId } = signedIn(request);
    return { response: 'success' as const, users: await findRecipients(app.db, userId, request.query.search) };
  });

  return Promise.resolve();
};
