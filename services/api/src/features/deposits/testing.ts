import { bitcoinQuote } from '@peeks/contracts';
import type { SignedIn } from '../../testing/merchants.ts';
import { body, made, type RouteSamples, sample } from '../../testing/route-samples.ts';

/** A bitcoin quote for the owner, as deposit-coins takes it back (parsing keeps the quote's fields only). */
const newBitcoinQuote = (owner: SignedIn) =>
  made(owner, '/api/account/get-bitcoin-info', { amount: 20 }, (answer) => bitcoinQuote.parse(answer));

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/account/deposit-interac': sample(
    () => body({ amount: 25, currency: 'CAD', securityQuestion: 'Name of my first pet?' }),
    {
      optional: ['currency', 'securityQuestion'],
    },
  ),
  'POST /api/account/deposit-zell': sample(() => body({ amount: 25, currency: 'USD' }), {
    optional: ['currency'],
  }),
  'POST /api/account/get-bitcoin-info': sample(() => body({ amount: 20 })),
  'POST /api/account/deposit-coins': sample(async (owner) =>
    body({ ...(await newBitcoinQuote(owner)), paymentMethodId: 'CRYPTO:BTC' }),
  ),
  'GET /api/account/deposits': sample(() => ({})),
};
