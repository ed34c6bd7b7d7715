import { storedBank, storedCard } from '../../testing/payment-methods.ts';
import { body, ownRecord, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/account/purchase': sample(
    async (owner, subject) =>
      body({ payment_method_id: await storedCard(subject, owner), coin_amt: 5000, currency: 'USD' }),
    {
      ...ownRecord,
      optional: ['currency'],
    },
  ),
  'POST /api/account/deposit-fund': sample(
    async (owner, subject) =>
      body({ amount: 2500, currency: 'USD', paymentMethodId: await storedCard(subject, owner) }),
    {
      ...ownRecord,
      optional: ['currency'],
    },
  ),
  'POST /api/account/withdraw': sample(
    async (owner) => body({ amount: 100, currency: 'USD', paymentMethodId: await storedBank(owner) }),
    { ...ownRecord, optional: ['pin'] },
  ),
};
