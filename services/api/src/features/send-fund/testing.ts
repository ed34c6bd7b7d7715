import { userOwnerId } from '@peeks/ledger';
import { fund } from '../../testing/money.ts';
import type { TestApp } from '../../testing/app.ts';
import { type SignedIn, signedUp } from '../../testing/merchants.ts';
import { storedCard } from '../../testing/payment-methods.ts';
import { body, ownRecord, type RouteSamples, sample } from '../../testing/route-samples.ts';

/** The owner with coins in the wallet, and the global id of someone to pay. */
async function payerAndPayee(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, userOwnerId(owner.user.user_id), 100_000);
  return (await signedUp(subject, 'personal')).user.guser_id;
}

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  // Funded by the owner's card: another user naming it is answered 404 (10501); without it the wallet pays.
  'POST /api/account/send-fund': sample(
    async (owner, subject) =>
      body({
        guser_id: await payerAndPayee(owner, subject),
        amount: 250,
        currency: 'CON',
        paymentMethodId: await storedCard(subject, owner),
      }),
    { ...ownRecord, optional: ['currency', 'paymentMethodId'] },
  ),
};
