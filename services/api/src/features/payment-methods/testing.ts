import { cardForm, storedCard, tokenFor } from '../../testing/payment-methods.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/wallet/payment-provider-lookup': sample(() => query({ provider: 'sandbox' })),
  'POST /api/wallet/add-pay-method': sample(async (_owner, subject) => body(cardForm(await tokenFor(subject))), {
    optional: ['billing_address.address2', 'shipping_address.shipping_address2'],
  }),
  'POST /api/account/pay-method': sample((owner) => body({ user_id: owner.user.user_id }), {
    ...ownRecord,
    optional: ['user_id'],
    bodyOptional: true,
  }),
  'POST /api/account/user-payment-method-update': sample(
    async (owner, subject) => body({ paymentMethodId: await storedCard(subject, owner), make_default: true }),
    ownRecord,
  ),
  'POST /api/account/user-payment-method-delete': sample(
    async (owner, subject) => body({ paymentMethodId: await storedCard(subject, owner) }),
    ownRecord,
  ),
};
