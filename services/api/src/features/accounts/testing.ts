import { businessSignUp, personalSignUp } from '../../testing/accounts.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const phoneRegions = [
  'phone_region',
  'support_phone_region',
  'contact_phone_region',
  'owner_phone_region',
  'address.address2',
];

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/register/personal': sample(() => body(personalSignUp())),
  'POST /api/user/user-register': sample(() => body(personalSignUp())),
  'POST /api/register/business': sample(() => body(businessSignUp()), { optional: phoneRegions }),
  'GET /api/user/user-lookup': sample((owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/perm': sample((owner) => query({ id: owner.user.user_id }), ownRecord),
  'GET /api/user/merchant-lookup': sample((owner) => query({ id: owner.merchantId }), {
    ...ownRecord,
    owner: 'business',
  }),
};
