import { userOwnerId } from '@peeks/ledger';
import { fund } from '../../testing/money.ts';
import type { TestApp } from '../../testing/app.ts';
import { checkoutForm, newCheckout } from '../../testing/checkout.ts';
import { type SignedIn, signedUp } from '../../testing/merchants.ts';
import { storedCard } from '../../testing/payment-methods.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

/** A checkout session of a new merchant's, and the owner funded to pay it. */
async function payableCheckout(owner: SignedIn, subject: TestApp) {
  await fund(subject, userOwnerId(owner.user.user_id), 100_000);
  return newCheckout(await signedUp(subject, 'business'));
}

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/checkout/create-session': sample(() => body(checkoutForm()), {
    optional: ['currency', 'expires_in'],
  }),
  'GET /api/checkout/session-details': sample(async (owner) => query({ id: (await newCheckout(owner)).id }), ownRecord),
  // The link's token is what opens a session, to a guest too (the Checkout page shows it beside the login box).
  'GET /api/checkout/session': sample(async (owner, subject) => query(await payableCheckout(owner, subject))),
  'POST /api/checkout/pay': sample(
    async (owner, subject) =>
      body({ ...(await payableCheckout(owner, subject)), paymentMethodId: await storedCard(subject, owner) }),
    {
      ...ownRecord,
      optional: ['paymentMethodId'],
    },
  ),
};
