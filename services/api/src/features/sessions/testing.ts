import { body, ownRecord, password, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/session': sample(() => ({})),
  'POST /api/login': sample((owner) => body({ username: owner.user.username, password })),
  'POST /api/logout': sample(() => body({}), { bodyOptional: true }),
  'POST /api/merchant/switch-merchant': sample((owner) => body({ merchant_id: owner.merchantId }), {
    ...ownRecord,
    owner: 'business',
  }),
};
