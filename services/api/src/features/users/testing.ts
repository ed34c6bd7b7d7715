import { signedUp } from '../../testing/merchants.ts';
import { query, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/user/user-list': sample(() => query({ search: 'user' })),
  'GET /api/user/recipient-lookup': sample(async (_owner, subject) =>
    query({ guser_id: (await signedUp(subject, 'personal')).user.guser_id }),
  ),
};
