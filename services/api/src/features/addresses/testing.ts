import { addressResponse } from '@peeks/contracts';
import { addressForm } from '../../testing/addresses.ts';
import type { SignedIn } from '../../testing/merchants.ts';
import { body, made, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const newAddress = (owner: SignedIn) =>
  made(owner, '/api/user/add-address', addressForm(), (answer) => addressResponse.parse(answer).address.address_id);

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/user/address-list': sample(() => query({ offset: 0, limit: 10 })),
  'POST /api/user/add-address': sample(() => body(addressForm()), { optional: ['address2'] }),
  'POST /api/user/update-address': sample(
    async (owner) => body({ ...addressForm({ city: 'Gatineau' }), address_id: await newAddress(owner) }),
    { ...ownRecord, optional: ['address2'] },
  ),
  'POST /api/user/delete-address': sample(async (owner) => body({ address_id: await newAddress(owner) }), ownRecord),
};
